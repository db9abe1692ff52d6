'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PasskeyConfirmation } from '@/app/(console)/_operator/passkey-confirmation';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { twoFactorRoutes } from '@/lib/two-factor/routes';

type ConfirmSecondFactorProps = {
  /** An authenticator app is enrolled: its code (or a backup code) confirms. */
  authenticator: boolean;
  /** Their passkeys: usable at this address, or not (an IP address: lib/passkeys/store.ts), or none. */
  passkey: 'usable' | 'unusable' | 'none';
  /** Where passkeys work, for an operator who has only a passkey and opened the console elsewhere. */
  consoleOrigin: string;
};

/**
 * The second step of a session that has not proved the operator's second factor yet (a password
 * sign-in of a passkey-only operator, or an SSO sign-in under CONSOLE_REQUIRE_2FA_FOR_SSO): a
 * passkey, or the app's code (or a backup code), which the step-up route checks and records as
 * this session's second factor. Then the console opens.
 */
export function ConfirmSecondFactor({ authenticator, passkey, consoleOrigin }: ConfirmSecondFactorProps) {
  const router = useRouter();
  const [code, setCode] = useState('');
  const confirm = useRouteMutation(twoFactorRoutes.stepUp);
  const fieldError = serverFieldErrors(confirm.error, ['code'] as const)[0]?.message;
  const formError = confirm.error && !fieldError ? formErrorMessage(confirm.error) : null;
  return (
    <div className="flex max-w-sm flex-col gap-5">
      {passkey === 'usable' ? (
        <PasskeyConfirmation
          // The one thing to do on this page when a passkey is the only way.
          autoFocus={!authenticator}
          onStart={() => confirm.reset()}
          onConfirmed={() => router.refresh()}
        />
      ) : null}
      {passkey === 'unusable' && !authenticator ? (
        <Alert variant="error" role="alert">
          Your passkey cannot be used at this address: open the console at {consoleOrigin} and sign in there.
        </Alert>
      ) : null}
      {authenticator ? (
        <form
          aria-label="Confirm with your authenticator app"
          noValidate
          className="flex flex-col gap-4"
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
      ) : null}
    </div>
  );
}
