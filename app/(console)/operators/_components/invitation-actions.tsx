'use client';

import { useState } from 'react';
import { useResendInvitation } from '@/app/(console)/operators/_hooks/use-resend-invitation';
import { useRevokeInvitation } from '@/app/(console)/operators/_hooks/use-revoke-invitation';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import type { InvitationLink, OperatorSummary } from '@/lib/console-api/operators';
import { InvitationLinkDialog } from './invitation-link-dialog';

/** For an operator invited but not yet in: send a new link (the old one stops working), or withdraw it. */
export function InvitationActions({ operator }: { operator: OperatorSummary }) {
  const [link, setLink] = useState<InvitationLink | null>(null);
  const [confirmingResend, setConfirmingResend] = useState(false);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const resend = useResendInvitation(operator.id, {
    onSuccess: (invitation) => {
      setConfirmingResend(false);
      setLink(invitation);
    },
  });
  const revoke = useRevokeInvitation(operator.id, { onSuccess: () => setConfirmingRevoke(false) });
  const pending = resend.isPending || revoke.isPending;
  const error = resend.error ?? revoke.error;

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="outline" disabled={pending} onClick={() => setConfirmingResend(true)}>
          Send a new link
        </Button>
        <Button size="sm" variant="destructive" disabled={pending} onClick={() => setConfirmingRevoke(true)}>
          Revoke invitation
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {formErrorMessage(error)}
        </p>
      ) : null}
      <Dialog open={confirmingResend} onOpenChange={setConfirmingResend}>
        <DialogContent>
          <DialogTitle>Send a new link to {operator.email}?</DialogTitle>
          <DialogDescription>
            The link they have stops working now. You are shown the new one once, to pass on.
          </DialogDescription>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              disabled={pending}
              onClick={() => {
                revoke.reset();
                resend.mutate();
              }}
            >
              Make a new link
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={confirmingRevoke} onOpenChange={setConfirmingRevoke}>
        <DialogContent>
          <DialogTitle>Revoke the invitation of {operator.email}?</DialogTitle>
          <DialogDescription>
            Their link stops working and they are removed from the operators. To let them in later, add them
            again.
          </DialogDescription>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={pending}
              onClick={() => {
                resend.reset();
                revoke.mutate();
              }}
            >
              Revoke invitation
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <InvitationLinkDialog email={operator.email} invitation={link} onClose={() => setLink(null)} />
    </div>
  );
}
