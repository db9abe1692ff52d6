'use client';

import type { RefObject } from 'react';
import { SecretField } from '@/components/secret-field';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import type { InvitationLink } from '@/lib/operators/contract';
import { formatExpiry } from './invitation-expiry';

/**
 * The one time an invitation link is shown: to the admin who made it, to pass on (no mail is
 * sent). Closing the dialog drops it; sending it again makes a new one.
 */
export function InvitationLinkDialog({
  email,
  invitation,
  onClose,
  returnFocus,
}: {
  email: string;
  invitation: InvitationLink | null;
  onClose: () => void;
  /**
   * What had the focus before the link was made: Done gives it back. The dialog opens when the
   * link comes, while that button is disabled (pending), so it cannot remember it by itself.
   */
  returnFocus: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog open={invitation !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!returnFocus.current?.isConnected) return;
          event.preventDefault();
          returnFocus.current.focus();
        }}
      >
        <DialogTitle>Invitation link for {email}</DialogTitle>
        <DialogDescription>
          Pass this link on to {email} yourself, over a channel you trust: with it they choose their own
          password and are signed in. It works once, until {formatExpiry(invitation?.expiresAt ?? '')}. It is
          shown only now; if it is lost, send a new one.
        </DialogDescription>
        {/* Meant to be read and passed on: shown, not behind Reveal (the dialog is the admin's, once). */}
        {invitation ? <SecretField label="Invitation link" value={invitation.link} startRevealed /> : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
