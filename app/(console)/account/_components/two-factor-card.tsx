'use client';

import { ShieldCheck } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import type { Enrolment } from '@/lib/two-factor/contract';
import { twoFactorRoutes } from '@/lib/two-factor/routes';
import { BackupCodes } from './backup-codes';
import { PasswordStep } from './password-step';

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
      <ScanStep
        enrolment={step.enrolment}
        onConfirmed={() => setStep({ name: 'codes', codes: step.enrolment.backupCodes })}
        onCancel={idle}
      />
    );
  if (step.name === 'codes')
    return (
      <BackupCodes
        codes={step.codes}
        onDone={() => {
          idle();
          router.refresh();
        }}
      />
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

/** The QR code (or the secret, typed by hand) and the app's first code. */
function ScanStep({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: Enrolment;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  // The app's first code turns the second factor on.
  const confirm = useRouteMutation(twoFactorRoutes.confirmTwoFactor);
  const [code, setCode] = useState('');
  const fieldError = serverFieldErrors(confirm.error, ['code'] as const)[0]?.message;
  const formError = confirm.error && !fieldError ? formErrorMessage(confirm.error) : null;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Scan this QR code with your authenticator app, or type the key below into it. Then enter the 6 digits
        it shows.
      </p>
      <div className="flex flex-wrap items-start gap-6">
        {/* biome-ignore lint/performance/noImgElement: an inline SVG data URL, not an optimisable image */}
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`}
          alt="QR code of the authenticator key"
          width={176}
          height={176}
          className="rounded-md border border-border bg-white p-1"
        />
        <dl className="flex min-w-0 flex-col gap-1">
          <dt className="text-sm font-medium">Key, to type by hand</dt>
          <dd>
            <code className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-all">
              {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </dd>
        </dl>
      </div>
      <form
        aria-label="Confirm the authenticator app"
        noValidate
        className="flex max-w-sm flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          confirm.mutate({ code }, { onSuccess: onConfirmed });
        }}
      >
        <OneTimeCodeField
          id="enrol-code"
          label="Code from the app"
          error={fieldError}
          autoFocus
          value={code}
          onChange={setCode}
        />
        {formError ? (
          <Alert variant="error" role="alert">
            {formError}
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Turn it on'}
          </Button>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
