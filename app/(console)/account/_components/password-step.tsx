'use client';

import { useId, useState } from 'react';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

type PasswordStepProps = {
  /** The form's name for assistive technology, and its button. */
  label: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  destructive?: boolean;
  onSubmit: (password: string) => void;
  onCancel: () => void;
};

/** The current password, asked before a change to the operator's second factor. */
export function PasswordStep({
  label,
  submitLabel,
  pending,
  error,
  destructive = false,
  onSubmit,
  onCancel,
}: PasswordStepProps) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const fieldError = missing
    ? 'Enter your password.'
    : serverFieldErrors(error, ['password'] as const)[0]?.message;
  const formError = error && !fieldError ? formErrorMessage(error) : null;
  return (
    <form
      aria-label={label}
      noValidate
      className="flex max-w-sm flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setMissing(password === '');
        if (password !== '') onSubmit(password);
      }}
    >
      <FormField id={`${id}-password`} label="Your password" error={fieldError}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </FormField>
      {formError ? (
        <Alert variant="error" role="alert">
          {formError}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={destructive ? 'destructive' : 'primary'} disabled={pending}>
          {pending ? 'Checking…' : submitLabel}
        </Button>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
