'use client';

import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useStepUpWithPasskey } from '@/app/(console)/_hooks/use-step-up-with-passkey';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

type PasskeyConfirmationProps = {
  /** The passkey passed: the session is confirmed (and has proved its second factor). */
  onConfirmed: () => void;
  /** Before the browser's prompt opens: the other way's error is cleared. */
  onStart?: () => void;
  autoFocus?: boolean;
  /** A line under the button (the other ways to confirm). */
  children?: ReactNode;
};

/**
 * "Confirm with a passkey": the session's challenge, the browser's prompt, the answer checked by
 * the step-up route; its refusal, in the console's words, under the button. The step-up dialog and
 * the second step of a passkey-only operator's sign-in both use it.
 */
export function PasskeyConfirmation({ onConfirmed, onStart, autoFocus, children }: PasskeyConfirmationProps) {
  const withPasskey = useStepUpWithPasskey();
  const refusal = serverFieldErrors(withPasskey.error, ['passkey'] as const)[0]?.message;
  const error = withPasskey.isError ? (refusal ?? formErrorMessage(withPasskey.error)) : null;
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        autoFocus={autoFocus}
        disabled={withPasskey.isPending || withPasskey.isSuccess}
        onClick={() => {
          onStart?.();
          withPasskey.mutate(undefined, { onSuccess: onConfirmed });
        }}
      >
        <KeyRound aria-hidden="true" />
        {withPasskey.isPending ? 'Waiting for your passkey…' : 'Confirm with a passkey'}
      </Button>
      {error ? (
        <Alert variant="error" role="alert">
          {error}
        </Alert>
      ) : null}
      {children}
    </div>
  );
}
