'use client';

import { useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { invitationRoutes } from '@/lib/invitations/routes';
import type { InvitationLink, OperatorSummary } from '@/lib/operators/contract';
import { InvitationLinkDialog } from './invitation-link-dialog';

/** For an operator invited but not yet in: send a new link (the old one stops working), or withdraw it. */
export function InvitationActions({ operator }: { operator: OperatorSummary }) {
  const [link, setLink] = useState<InvitationLink | null>(null);
  const sendAgainButton = useRef<HTMLButtonElement>(null);
  const [confirming, setConfirming] = useState<'resend' | 'revoke' | null>(null);
  // Either way the server-rendered list is read again: the new link's expiry, or the row gone.
  const resend = useRouteMutation(invitationRoutes.resendInvitation, {
    params: { id: operator.id },
    refresh: true,
    onSuccess: (invitation) => {
      setConfirming(null);
      setLink(invitation);
    },
  });
  const revoke = useRouteMutation(invitationRoutes.revokeInvitation, {
    params: { id: operator.id },
    refresh: true,
    onSuccess: () => setConfirming(null),
  });
  const pending = resend.isPending || revoke.isPending;
  /** Opens one confirmation, clearing what the last attempt of either said. */
  const ask = (action: 'resend' | 'revoke') => {
    resend.reset();
    revoke.reset();
    setConfirming(action);
  };
  const closeWhenDismissed = (open: boolean) => {
    if (!open) setConfirming(null);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          ref={sendAgainButton}
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() => ask('resend')}
        >
          Send a new link
        </Button>
        <Button size="sm" variant="destructive" disabled={pending} onClick={() => ask('revoke')}>
          Revoke invitation
        </Button>
      </div>
      <ConfirmDialog
        open={confirming === 'resend'}
        onOpenChange={closeWhenDismissed}
        title={`Send a new link to ${operator.email}?`}
        description="The link they have stops working now. You are shown the new one once, to pass on."
        confirmLabel="Make a new link"
        pending={resend.isPending}
        pendingLabel="Making a link…"
        error={resend.isError ? formErrorMessage(resend.error) : null}
        onConfirm={() => resend.mutate()}
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        onOpenChange={closeWhenDismissed}
        title={`Revoke the invitation of ${operator.email}?`}
        description="Their link stops working and they are removed from the operators. To let them in later, add them again."
        confirmLabel="Revoke invitation"
        destructive
        pending={revoke.isPending}
        pendingLabel="Revoking…"
        error={revoke.isError ? formErrorMessage(revoke.error) : null}
        onConfirm={() => revoke.mutate()}
      />
      <InvitationLinkDialog
        email={operator.email}
        invitation={link}
        onClose={() => setLink(null)}
        returnFocus={sendAgainButton}
      />
    </div>
  );
}
