'use client';

import { KeyRound } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { lazy, Suspense, useState } from 'react';
import { passkeysKey, useAddPasskey, usePasskeys } from '@/app/(console)/account/_hooks/use-passkeys';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import type { PasskeySummary } from '@/lib/passkeys/contract';
import { passkeyRoutes } from '@/lib/passkeys/routes';
import { formatUtc } from '@/lib/time';

/** Its name field, shown after Add a passkey: fetched then. */
const AddPasskeyForm = lazy(() =>
  import('./add-passkey-form').then((module) => ({ default: module.AddPasskeyForm })),
);

type PasskeysCardProps = {
  /** The console's address lets browsers use passkeys (a host name; https or http://localhost). */
  usable: boolean;
  /** The console's address, for the message when it does not. */
  consoleOrigin: string;
  /**
   * The policy asks this operator for a second factor and this is the only kind they have: the last
   * passkey stays.
   */
  keepLast: boolean;
};

/**
 * The operator's passkeys on their account page: each one signs in on its own (the authenticator
 * asks for a PIN or biometrics) and confirms a step-up. Add one under a name, or remove one.
 */
export function PasskeysCard({ usable, consoleOrigin, keepLast }: PasskeysCardProps) {
  const router = useRouter();
  const passkeys = usePasskeys();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  // The policy (a required second factor) is read on the server: refresh it after a change.
  const add = useAddPasskey({
    onSuccess: () => {
      setAdding(false);
      router.refresh();
    },
  });
  // The one being confirmed: its dialog is open only while `removing` is set.
  const remove = useRouteMutation(passkeyRoutes.removePasskey, {
    params: { id: removing?.id ?? '' },
    invalidates: passkeysKey,
    onSuccess: () => {
      setRemoving(null);
      router.refresh();
    },
  });

  if (!usable)
    return (
      <Alert variant="notice">
        Passkeys cannot be used at this console’s address ({consoleOrigin}): browsers allow them only on a
        host name over https, or on http://localhost, never on an IP address. Ask whoever runs the console to
        set CONSOLE_URL to such an address.
      </Alert>
    );
  if (passkeys.isPending) return <p className="text-sm text-muted-foreground">Loading your passkeys…</p>;
  if (passkeys.isError)
    return (
      <Alert variant="error" role="alert">
        {formErrorMessage(passkeys.error)}
      </Alert>
    );
  const list = passkeys.data.passkeys;
  const lastOne = keepLast && list.length <= 1;
  return (
    <div className="flex flex-col gap-3">
      {list.length === 0 ? (
        <p className="text-sm">
          <span className="font-medium">None yet.</span> A passkey signs you in with your device’s PIN,
          fingerprint or face instead of a password and code.
        </p>
      ) : (
        <ul
          aria-label="Your passkeys"
          className="flex flex-col divide-y divide-border rounded-md border border-border"
        >
          {list.map((passkey) => (
            <li
              key={passkey.id}
              className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
            >
              <div className="flex min-w-0 flex-col">
                <span className="font-medium break-words">{passkey.name}</span>
                <span className="text-xs text-muted-foreground">
                  {passkey.createdAt
                    ? `added ${formatUtc(passkey.createdAt)}`
                    : 'added before dates were kept'}
                </span>
              </div>
              {lastOne ? null : (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Remove the passkey ${passkey.name}`}
                  onClick={() => {
                    remove.reset();
                    setRemoving(passkey);
                  }}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {lastOne ? (
        <p className="text-xs text-muted-foreground">
          Your role must have a second factor: add another passkey or an authenticator app before removing
          this one.
        </p>
      ) : null}
      {adding ? (
        <Suspense fallback={null}>
          <AddPasskeyForm
            pending={add.isPending}
            error={add.error}
            onSubmit={(name) => add.mutate(name)}
            onCancel={() => {
              add.reset();
              setAdding(false);
            }}
          />
        </Suspense>
      ) : (
        <div>
          <Button variant={list.length === 0 ? 'primary' : 'outline'} onClick={() => setAdding(true)}>
            <KeyRound aria-hidden="true" />
            Add a passkey
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={`Remove the passkey ${removing?.name ?? ''}?`}
        description="It will no longer sign you in or confirm it is you. The passkey stays in your device or password manager until you delete it there too."
        cancelLabel="Keep it"
        confirmLabel="Remove the passkey"
        destructive
        pending={remove.isPending}
        pendingLabel="Removing…"
        error={remove.isError ? formErrorMessage(remove.error) : null}
        onConfirm={() => removing && remove.mutate()}
      />
    </div>
  );
}
