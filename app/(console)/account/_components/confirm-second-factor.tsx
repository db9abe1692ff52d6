'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useStepUp } from '@/app/(console)/_hooks/use-step-up';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * After a single sign-on, when the policy makes the operator's role use its second factor
 * (CONSOLE_REQUIRE_2FA_FOR_SSO): the app's code (or a backup code), which the step-up route checks
 * and records as this session's second factor. Then the console opens.
 */
export function ConfirmSecondFactor() {
  const router = useRouter();
  const [code, setCode] = useState('');
  const confirm = useStepUp();
  const fieldError = serverFieldErrors(confirm.error, ['code'] as const)[0]?.message;
  const formError = confirm.error && !fieldError ? formErrorMessage(confirm.error) : null;
  return (
    <form
      aria-label="Confirm with your authenticator app"
      noValidate
      className="flex max-w-sm flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (code.trim() === '') return;
        confirm.mutate({ code }, { onSuccess: () => router.refresh() });
      }}
    >
      <OneTimeCodeField
        id="confirm-second-factor-code"
        label="Authenticator or backup code"
        description="The 6 digits your app shows now, or one of your backup codes."
        error={fieldError}
        digitsOnly={false}
        autoFocus
        value={code}
        onChange={setCode}
      />
      {formError ? (
        <Alert variant="error" role="alert">
          {formError}
        </Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={confirm.isPending || confirm.isSuccess}>
          {confirm.isPending ? 'Checking…' : 'Confirm'}
        </Button>
      </div>
    </form>
  );
}
