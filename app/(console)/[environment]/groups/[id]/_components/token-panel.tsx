'use client';

import { KeyRound, Plus, RefreshCw, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { NavigationGuard } from '@/components/navigation-guard';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Environment, environmentPhrase, slugOf } from '@/lib/environments';

type TokenPanelProps = {
  environment: Environment;
  userGroupId: string;
  /** The directory says the group was deleted: there is no token to show. */
  deleted: boolean;
  mayRotate: boolean;
  mayDelete: boolean;
  /** Where Create it again leads (the create form, filled in from the directory's record), if allowed. */
  createHref: string | null;
};

type Rotated = { oldToken: string; newToken: string; copied: boolean };

/** Why there is no token: deleted here and now, found gone by Show token, or deleted before. */
type Absence = 'deleted-now' | 'gone' | null;

/**
 * The group's token and what can be done with it, in place: Show token (which never creates the
 * group: one deleted elsewhere is said to be gone, with Create it again), Reveal and Copy, Rotate
 * (the new token stays on screen, and leaving the page asks, until it is copied or closing is
 * confirmed) and Delete with the token the page holds. The page refreshes under it (fingerprint,
 * history) while its state stays.
 */
export function TokenPanel({
  environment,
  userGroupId,
  deleted,
  mayRotate,
  mayDelete,
  createHref,
}: TokenPanelProps) {
  const router = useRouter();
  const [token, setToken] = useState<string | null>(null);
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null);
  const [closingUncopied, setClosingUncopied] = useState(false);
  const [absence, setAbsence] = useState<Absence>(null);
  const rotatedRef = useRef<HTMLElement>(null);
  const newToken = rotated?.newToken;
  const inCustomer = environment === 'Customer';
  const typeToConfirm = inCustomer ? ({ kind: 'id', value: userGroupId } as const) : null;
  const where = environmentPhrase(environment);

  const params = { environment: slugOf[environment] };
  // Never creates the group: `gone` when the service no longer has it.
  const show = useRouteMutation(consoleRoutes.showToken, {
    params,
    onSuccess: (result) => {
      if (result.gone) {
        setAbsence('gone');
        // The directory now records it deleted, and the history has the look and the undoing.
        router.refresh();
      } else setToken(result.user_group.token);
    },
  });
  const rotate = useRouteMutation(consoleRoutes.rotate, {
    params,
    onSuccess: (result, request) => {
      setRotated({ oldToken: request.current_token, newToken: result.user_group.token, copied: false });
      setToken(result.user_group.token);
      // The fingerprint and the history change now; the new token stays here (this state survives).
      router.refresh();
    },
  });
  const remove = useRouteMutation(consoleRoutes.delete, {
    params,
    onSuccess: () => {
      setAbsence('deleted-now');
      setToken(null);
      router.refresh();
    },
  });
  const failure = show.error ?? rotate.error ?? remove.error;
  const staleToken = remove.error instanceof ConsoleApiError && remove.error.code === 'not_found';

  // The Rotate button is gone once the new token is on screen: the focus goes to it, not to the page.
  useEffect(() => {
    if (newToken) rotatedRef.current?.focus();
  }, [newToken]);

  const finishRotation = () => {
    setRotated(null);
    setClosingUncopied(false);
  };

  if (absence === 'gone') {
    return (
      <Alert role="status" variant="notice" className="flex flex-col items-start gap-3">
        <p>
          The user group {userGroupId} no longer exists in {where}: it was deleted outside this console. Show
          token did not create it again, and there is no token to show.
        </p>
        <CreateAgain href={createHref} />
      </Alert>
    );
  }
  if (absence === 'deleted-now' || deleted) {
    return (
      <Alert role="status" variant="notice" className="flex flex-col items-start gap-3">
        <p>
          The user group {userGroupId} was deleted from {environment}: its token no longer works.
        </p>
        <CreateAgain href={createHref} />
      </Alert>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {rotated ? (
        <section
          ref={rotatedRef}
          tabIndex={-1}
          aria-label="Rotated token"
          className="flex flex-col gap-3 rounded-lg border border-border p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <SecretField
            label="New token"
            value={rotated.newToken}
            confirmFirst={inCustomer}
            onCopied={() => setRotated((current) => (current ? { ...current, copied: true } : current))}
          />
          <SecretField label="Old token" value={rotated.oldToken} revoked confirmFirst={inCustomer} />
          {closingUncopied ? (
            <Alert variant="notice" role="alert" className="flex flex-col gap-2">
              <p>The new token has not been copied. Close anyway? Show token fetches it again later.</p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={finishRotation}>
                  Close without copying
                </Button>
                <Button variant="outline" onClick={() => setClosingUncopied(false)}>
                  Keep it on screen
                </Button>
              </div>
            </Alert>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <Button
                variant="outline"
                onClick={() => (rotated.copied ? finishRotation() : setClosingUncopied(true))}
              >
                Done
              </Button>
              {rotated.copied ? null : (
                <p className="text-xs text-muted-foreground">Copy the new token before leaving this page.</p>
              )}
            </div>
          )}
          <NavigationGuard
            active={!rotated.copied}
            title={`Leave ${userGroupId} in ${where} without copying its new token?`}
            description="The old token stopped working. The new one is on this page until you copy it; Show token can fetch it again later."
            stayLabel="Stay and copy it"
            leaveLabel="Leave without copying"
          />
        </section>
      ) : token ? (
        <SecretField label="Token" value={token} confirmFirst={inCustomer} />
      ) : (
        <div>
          <Button onClick={() => show.mutate({ user_group_id: userGroupId })} disabled={show.isPending}>
            <KeyRound aria-hidden="true" />
            {show.isPending ? 'Fetching…' : 'Show token'}
          </Button>
        </div>
      )}

      {failure ? (
        <Alert variant="error" role="alert">
          {staleToken
            ? 'This token no longer matches the group: it was rotated elsewhere. Reload the page and show the token again, then delete.'
            : formErrorMessage(failure)}
        </Alert>
      ) : null}

      {token && !rotated && (mayRotate || mayDelete) ? (
        <div className="flex flex-wrap gap-2">
          {mayRotate ? (
            <Button variant="outline" onClick={() => setConfirming('rotate')} disabled={rotate.isPending}>
              <RefreshCw aria-hidden="true" />
              {rotate.isPending ? 'Rotating…' : 'Rotate token'}
            </Button>
          ) : null}
          {mayDelete ? (
            <Button variant="destructive" onClick={() => setConfirming('delete')} disabled={remove.isPending}>
              <Trash2 aria-hidden="true" />
              {remove.isPending ? 'Deleting…' : 'Delete user group'}
            </Button>
          ) : null}
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : null)}
        title={`Rotate the token of ${userGroupId} in ${where}?`}
        description={`The current token stops working at once, in ${environment}. Every system using it needs the new one.`}
        confirmLabel="Rotate token"
        typeToConfirm={typeToConfirm}
        destructive={inCustomer}
        onConfirm={() => {
          setConfirming(null);
          if (token) rotate.mutate({ current_token: token });
        }}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => setConfirming(open ? 'delete' : null)}
        title={`Delete ${userGroupId} from ${where}?`}
        description={`The group and its token are deleted from ${environment}. Its embedded dashboards stop working.`}
        confirmLabel="Delete user group"
        typeToConfirm={typeToConfirm}
        destructive
        onConfirm={() => {
          setConfirming(null);
          if (token) remove.mutate({ user_group_id: userGroupId, current_token: token });
        }}
      />
    </div>
  );
}

/** The explicit way back: the create form, filled in from what the console recorded of the group. */
function CreateAgain({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <Link href={href} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
      <Plus aria-hidden="true" />
      Create it again
    </Link>
  );
}
