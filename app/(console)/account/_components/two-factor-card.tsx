'use client';

import { ShieldCheck } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { lazy, Suspense, useState } from 'react';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import type { Enrolment } from '@/lib/two-factor/contract';
import { twoFactorRoutes } from '@/lib/two-factor/routes';
import { PasswordStep } from './password-step';

// The steps after the password (the QR code and the first code, then the backup codes) are fetched
// when one is reached: most visits to the account page only read that the app is on.
const ScanStep = lazy(() => import('./scan-step').then((module) => ({ default: module.ScanStep })));
const BackupCodes = lazy(() => import('./backup-codes').then((module) => ({ default: module.BackupCodes })));

type Action = 'enrol' | 'codes' | 'remove';

type Step =
  | { name: 'idle' }
  | { name: 'password'; for: Action }
  | { name: 'scan'; enrolment: Enrolment }
  | { name: 'codes'; codes: string[] };

/**
 * The operator's second factor on their account page: set up an authenticator app (password, QR
 * code or secret, the first code, then the backup codes once), new backup codes, or remove it.
 */
export function TwoFactorCard({
  enabled,
  required,
  hasPassword,
}: {
  enabled: boolean;
  required: boolean;
  /** Without one (SSO only), no password is asked: the server wants a recent sign-in instead. */
  hasPassword: boolean;
}) {
  const router = useRouter();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  // Enrolling starts with the password: the secret (QR code and text) and ten backup codes come back.
  const start = useRouteMutation(twoFactorRoutes.startTwoFactor);
  // Ten new backup codes; the old ones stop working.
  const newCodes = useRouteMutation(twoFactorRoutes.newBackupCodes);
  const remove = useRouteMutation(twoFactorRoutes.removeTwoFactor);
  const idle = () => {
    start.reset();
    newCodes.reset();
    remove.reset();
    setStep({ name: 'idle' });
  };

  if (step.name === 'scan')
    return (
      <Suspense fallback={null}>
        <ScanStep
          enrolment={step.enrolment}
          onConfirmed={() => setStep({ name: 'codes', codes: step.enrolment.backupCodes })}
          onCancel={idle}
        />
      </Suspense>
    );
  if (step.name === 'codes')
    return (
      <Suspense fallback={null}>
        <BackupCodes
          codes={step.codes}
          onDone={() => {
            idle();
            router.refresh();
          }}
        />
      </Suspense>
    );
  /** Starts enrolling, makes new codes or removes, with the password when they have one. */
  const run = (action: Action, password: string | undefined) => {
    if (action === 'enrol')
      start.mutate({ password }, { onSuccess: (enrolment) => setStep({ name: 'scan', enrolment }) });
    else if (action === 'codes')
      newCodes.mutate(
        { password },
        { onSuccess: ({ backupCodes }) => setStep({ name: 'codes', codes: backupCodes }) },
      );
    else
      remove.mutate(
        { password },
        {
          onSuccess: () => {
            idle();
            router.refresh();
          },
        },
      );
  };
  // Without a password (SSO only) the server asks for a recent sign-in instead, through the step-up dialog.
  const ask = (action: Action) =>
    hasPassword ? setStep({ name: 'password', for: action }) : run(action, undefined);
  const mutations = { enrol: start, codes: newCodes, remove };

  if (step.name === 'password') {
    const wording = {
      enrol: { label: 'Set up an authenticator app', submit: 'Continue' },
      codes: { label: 'New backup codes', submit: 'Make new codes' },
      remove: { label: 'Remove the authenticator app', submit: 'Remove it' },
    }[step.for];
    const mutation = mutations[step.for];
    return (
      <PasswordStep
        label={wording.label}
        submitLabel={wording.submit}
        pending={mutation.isPending}
        error={mutation.error}
        destructive={step.for === 'remove'}
        onCancel={idle}
        onSubmit={(password) => run(step.for, password)}
      />
    );
  }
  const failed = hasPassword ? null : [start, newCodes, remove].find((mutation) => mutation.isError);

  return (
    <div className="flex flex-col gap-3">
      {enabled ? (
        <p className="text-sm">
          <span className="font-medium">On.</span> Signing in asks for the code of your authenticator app
          after your password.
        </p>
      ) : (
        <p className="text-sm">
          <span className="font-medium">Off.</span> An authenticator app (Google Authenticator, 1Password,
          Authy…) adds a code to your password at sign-in.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {enabled ? (
          <>
            <Button variant="outline" disabled={newCodes.isPending} onClick={() => ask('codes')}>
              New backup codes
            </Button>
            {required ? null : (
              <Button variant="outline" disabled={remove.isPending} onClick={() => ask('remove')}>
                Remove the app
              </Button>
            )}
          </>
        ) : (
          <Button disabled={start.isPending} onClick={() => ask('enrol')}>
            <ShieldCheck aria-hidden="true" />
            Set up an authenticator app
          </Button>
        )}
      </div>
      {failed?.error ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(failed.error)}
        </Alert>
      ) : null}
    </div>
  );
}
