'use client';

import { useState } from 'react';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import type { Enrolment } from '@/lib/two-factor/contract';
import { twoFactorRoutes } from '@/lib/two-factor/routes';

/** The QR code (or the secret, typed by hand) and the app's first code. */
export function ScanStep({
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
