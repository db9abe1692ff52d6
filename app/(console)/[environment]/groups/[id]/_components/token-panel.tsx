'use client';

import { KeyRound, RefreshCw, Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useDeleteUserGroup } from '@/app/(console)/_hooks/use-delete-user-group';
import { useGetOrCreateUserGroup } from '@/app/(console)/_hooks/use-get-or-create-user-group';
import { useRotateToken } from '@/app/(console)/_hooks/use-rotate-token';
import { formErrorMessage } from '@/components/form-errors';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConsoleApiError } from '@/lib/console-api/client';
import type { Environment } from '@/lib/environments';
import type { GetOrCreateRequest } from '@/lib/user-group-api/contract';
import { ConfirmAction } from '../../../_components/confirm-action';

type TokenPanelProps = {
  environment: Environment;
  userGroupId: string;
  /**
   * What the directory holds of the group, sent along with Show token: should the group have been
   * deleted elsewhere, it is created anew as it was, not empty.
   */
  recorded: Omit<GetOrCreateRequest, 'user_group_id'>;
  mayRotate: boolean;
  mayDelete: boolean;
};

type Rotated = { oldToken: string; newToken: string; copied: boolean };

/**
 * The group's token and what can be done with it, in place: Show token (a get-or-create, which
 * says so when it had to create the group anew), Reveal and Copy, Rotate (the new token stays on
 * screen until copied or closing is confirmed) and Delete with the token the page holds.
 */
export function TokenPanel({ environment, userGroupId, recorded, mayRotate, mayDelete }: TokenPanelProps) {
  const router = useRouter();
  const [token, setToken] = useState<string | null>(null);
  const [recreated, setRecreated] = useState(false);
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null);
  const [closingUncopied, setClosingUncopied] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const typeToConfirm = environment === 'Customer' ? userGroupId : null;

  const show = useGetOrCreateUserGroup(environment, {
    onSuccess: (result) => {
      setToken(result.user_group.token);
      setRecreated(result.new_user_group);
      if (result.new_user_group) router.refresh();
    },
  });
  const rotate = useRotateToken(environment, {
    onSuccess: (result, request) => {
      setRotated({ oldToken: request.current_token, newToken: result.user_group.token, copied: false });
      setToken(result.user_group.token);
    },
  });
  const remove = useDeleteUserGroup(environment, {
    onSuccess: () => {
      setDeleted(true);
      setToken(null);
      router.refresh();
    },
  });
  const failure = show.error ?? rotate.error ?? remove.error;
  const staleToken = remove.error instanceof ConsoleApiError && remove.error.code === 'not_found';

  const finishRotation = () => {
    setRotated(null);
    setClosingUncopied(false);
    router.refresh();
  };

  if (deleted) {
    return (
      <Alert role="status" variant="notice">
        The user group {userGroupId} was deleted from {environment}: its token no longer works.
      </Alert>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {rotated ? (
        <section
          aria-label="Rotated token"
          className="flex flex-col gap-3 rounded-lg border border-border p-4"
        >
          <SecretField
            label="New token"
            value={rotated.newToken}
            onCopied={() => setRotated((current) => (current ? { ...current, copied: true } : current))}
          />
          <SecretField label="Old token" value={rotated.oldToken} revoked />
          {closingUncopied ? (
            <Alert variant="notice" role="alert" className="flex flex-col gap-2">
              <p>The new token has not been copied. Close anyway? Show token fetches it again later.</p>
              <div className="flex gap-2">
                <Button variant="outline" onClick={finishRotation}>
                  Close without copying
                </Button>
                <Button variant="outline" onClick={() => setClosingUncopied(false)}>
                  Keep it on screen
                </Button>
              </div>
            </Alert>
          ) : (
            <div>
              <Button
                variant="outline"
                onClick={() => (rotated.copied ? finishRotation() : setClosingUncopied(true))}
              >
                Done
              </Button>
            </div>
          )}
        </section>
      ) : token ? (
        <SecretField label="Token" value={token} />
      ) : (
        <div>
          <Button
            onClick={() => show.mutate({ ...recorded, user_group_id: userGroupId })}
            disabled={show.isPending}
          >
            <KeyRound aria-hidden="true" />
            {show.isPending ? 'Fetching…' : 'Show token'}
          </Button>
        </div>
      )}

      {recreated ? (
        <Alert variant="notice" role="status">
          This group had been deleted elsewhere: the service created it anew, with a new token, from the name,
          mapping and properties this console had on record.
        </Alert>
      ) : null}

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

      <ConfirmAction
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : null)}
        title={`Rotate the token of ${userGroupId}?`}
        description={`The current token stops working at once, in ${environment}. Every system using it needs the new one.`}
        confirmLabel="Rotate token"
        typeToConfirm={typeToConfirm}
        onConfirm={() => {
          setConfirming(null);
          if (token) rotate.mutate({ current_token: token });
        }}
      />
      <ConfirmAction
        open={confirming === 'delete'}
        onOpenChange={(open) => setConfirming(open ? 'delete' : null)}
        title={`Delete ${userGroupId}?`}
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
