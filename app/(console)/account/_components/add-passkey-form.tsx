'use client';

import { useId, useState } from 'react';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { MAX_PASSKEY_NAME_LENGTH } from '@/lib/passkeys/contract';

/** The name to know it by, then the browser's own passkey prompt. */
export function AddPasskeyForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [missing, setMissing] = useState(false);
  const fieldError =
    (missing ? 'must not be empty' : undefined) ?? serverFieldErrors(error, ['name'] as const)[0]?.message;
  const formError = error && !fieldError ? formErrorMessage(error) : null;
  return (
    <form
      aria-label="Add a passkey"
      noValidate
      className="flex max-w-sm flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() === '') {
          setMissing(true);
          return;
        }
        onSubmit(name.trim());
      }}
    >
      <FormField
        id={`${id}-name`}
        label="Name of the passkey"
        description="To tell it apart in this list, such as “Work laptop” or “YubiKey”."
        error={fieldError}
      >
        {(control) => (
          <Input
            {...control}
            autoFocus
            autoComplete="off"
            maxLength={MAX_PASSKEY_NAME_LENGTH}
            value={name}
            onChange={(event) => {
              setMissing(false);
              setName(event.target.value);
            }}
          />
        )}
      </FormField>
      {formError ? (
        <Alert variant="error" role="alert">
          {formError}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Waiting for your device…' : 'Continue'}
        </Button>
        <Button variant="outline" type="button" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
