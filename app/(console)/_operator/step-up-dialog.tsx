'use client';

import { ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { useStartSingleSignOn } from '@/app/sign-in/_hooks/use-start-single-sign-on';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { noteConfirmedFor } from '@/lib/browser-client/step-up-prompt';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { plural } from '@/lib/plural';
import { twoFactorRoutes } from '@/lib/two-factor/routes';
import { PasskeyConfirmation } from './passkey-confirmation';

export type StepUpDialogProps = {
  /** CONSOLE_STEP_UP_MINUTES, for the explanation. */
  minutes: number;
  /** An authenticator app is enrolled: a code may stand in for the password. */
  hasAuthenticator: boolean;
  /** They have a passkey (and the console's address allows passkeys): it may confirm instead. */
  hasPasskey: boolean;
  /** Signed in through single sign-on: signing in there again is their confirmation. */
  sso: { name: string } | null;
  open: boolean;
  /** Confirmed, or closed without: the question is answered. */
  onSettled: (confirmed: boolean) => void;
};

/**
 * The dialog over a production action that needs a recent authentication (lib/two-factor/step-up.ts):
 * the route client asks it (lib/browser-client/step-up-prompt.ts) through ./step-up-prompt.tsx, which
 * loads it then, and the action goes on once the person has confirmed, with everything they typed
 * still in place.
 */
export function StepUpDialog({
  minutes,
  hasAuthenticator,
  hasPasskey,
  sso,
  open,
  onSettled,
}: StepUpDialogProps) {
  const id = useId();
  const [method, setMethod] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  // The password, an authenticator code or a backup code.
  const stepUp = useRouteMutation(twoFactorRoutes.stepUp);
  const returnPath = () => `${window.location.pathname}${window.location.search}`;
  const signInAgain = useStartSingleSignOn('/', { onError: () => undefined });

  function close(confirmed: boolean) {
    if (confirmed) noteConfirmedFor(minutes * 60_000);
    setValue('');
    stepUp.reset();
    onSettled(confirmed);
  }

  const field = method === 'password' ? 'password' : 'code';
  const fieldError = serverFieldErrors(stepUp.error, [field] as const)[0]?.message;
  const formError = stepUp.isError && !fieldError ? formErrorMessage(stepUp.error) : null;

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close(false))}>
      <DialogContent>
        <DialogTitle>Confirm it’s you</DialogTitle>
        <DialogDescription>
          Customer (production) tokens and changes, and changes to operators, need you to have signed in or
          confirmed within the last {plural(minutes, 'minute')}. What you were doing goes on once you have.
        </DialogDescription>
        {sso ? (
          <div className="flex flex-col gap-2">
            <Button
              disabled={signInAgain.isPending || signInAgain.isSuccess}
              onClick={() => signInAgain.mutate({ next: returnPath() })}
            >
              {signInAgain.isPending || signInAgain.isSuccess ? 'Opening…' : `Sign in again with ${sso.name}`}
            </Button>
            <p className="text-xs text-muted-foreground">
              You come back to this page signed in afresh; then do the action again. Or, if you have a console
              password, confirm with it below.
            </p>
            {signInAgain.isError ? (
              <Alert variant="error" role="alert">
                Single sign-on could not start. Try again in a moment.
              </Alert>
            ) : null}
          </div>
        ) : null}
        {hasPasskey ? (
          <PasskeyConfirmation onStart={() => stepUp.reset()} onConfirmed={() => close(true)}>
            <p className="text-xs text-muted-foreground">Or confirm with your password or a code below.</p>
          </PasskeyConfirmation>
        ) : null}
        <form
          aria-label="Confirm it’s you"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (value.trim() === '') return;
            const proof = method === 'password' ? { password: value } : { code: value };
            stepUp.mutate(proof, { onSuccess: () => close(true) });
          }}
        >
          {method === 'password' ? (
            <FormField id={`${id}-password`} label="Your password" error={fieldError}>
              {(control) => (
                <Input
                  {...control}
                  type="password"
                  autoComplete="current-password"
                  autoFocus
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                />
              )}
            </FormField>
          ) : (
            <OneTimeCodeField
              id={`${id}-code`}
              label="Authenticator or backup code"
              description="The 6 digits your app shows now, or one of your backup codes."
              error={fieldError}
              digitsOnly={false}
              autoFocus
              value={value}
              onChange={setValue}
            />
          )}
          {hasAuthenticator ? (
            <div>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="underline underline-offset-4"
                onClick={() => {
                  setMethod(method === 'password' ? 'code' : 'password');
                  setValue('');
                  stepUp.reset();
                }}
              >
                {method === 'password' ? 'Use an authenticator code instead' : 'Use your password instead'}
              </Button>
            </div>
          ) : null}
          {formError ? (
            <Alert variant="error" role="alert">
              {formError}
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={stepUp.isPending}>
              <ShieldCheck aria-hidden="true" />
              {stepUp.isPending ? 'Checking…' : 'Confirm'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
