'use client';

import dynamic from 'next/dynamic';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { invitationRoutes } from '@/lib/invitations/routes';
import type { InvitationLink, OperatorSummary } from '@/lib/operators/contract';
import type { Role } from '@/lib/roles';
import { InvitationLinkDialog } from './invitation-link-dialog';

/** Only where the policy makes granting admin wait for another operator: loaded then. */
const ApprovalWaiting = dynamic(() =>
  import('@/components/approval-waiting').then((module) => module.ApprovalWaiting),
);

/**
 * For an operator invited but not yet in: send a new link (the old one stops working), or withdraw
 * it. A new link for a role that can approve (`approvalRoles`) is a grant: it asks for a reason and
 * waits for another operator, and the link is emailed to them alone (without mail the server says
 * at once how they get in instead).
 */
export function InvitationActions({
  operator,
  approvalRoles = [],
  mails = false,
}: {
  operator: OperatorSummary;
  approvalRoles?: readonly Role[];
  mails?: boolean;
}) {
  const [link, setLink] = useState<InvitationLink | null>(null);
  const approves = operator.role !== null && approvalRoles.includes(operator.role);
  const needsApproval = approves && mails;
  const [reason, setReason] = useState('');
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
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
    onWaiting: ({ approvalId }) => {
      setConfirming(null);
      setWaitingFor(approvalId);
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
    setReason('');
    setWaitingFor(null);
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
      {waitingFor ? <ApprovalWaiting approvalId={waitingFor} /> : null}
      <ConfirmDialog
        open={confirming === 'resend'}
        onOpenChange={closeWhenDismissed}
        title={`Send a new link to ${operator.email}?`}
        description={
          needsApproval
            ? `A ${operator.role} can approve what the policy names: a new link waits for another operator’s approval, then goes to ${operator.email} by email alone. Neither you nor the approver is shown it.`
            : approves
              ? `A ${operator.role} can approve what the policy names, and without a mail server their link could only be shown to you: the console will say how they get in instead.`
              : 'The link they have stops working now. You are shown the new one once, to pass on.'
        }
        confirmLabel={needsApproval ? 'Ask for approval' : 'Make a new link'}
        pending={resend.isPending}
        pendingLabel={needsApproval ? 'Asking…' : 'Making a link…'}
        reason={
          needsApproval
            ? { label: 'Reason (another operator reads it)', value: reason, onChange: setReason }
            : null
        }
        error={resend.isError ? formErrorMessage(resend.error) : null}
        onConfirm={() =>
          resend.mutate(needsApproval ? Object.assign(nothing(), { approvalReason: reason }) : {})
        }
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

/** The resend's own body: nothing, beside which the approval's reason rides where it is asked. */
function nothing(): Record<string, never> {
  return {};
}
