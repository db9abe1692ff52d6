'use client';

import { type RefObject, useState } from 'react';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
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
import { formatExpiry } from '@/lib/time';

/**
 * The one time an invitation link is shown: to the admin who made it, to pass on (with SMTP_URL it
 * was also emailed, or the dialog says why it could not be). Closing the dialog drops it; sending it
 * again makes a new one. Done closes it; Escape or a click outside, before the link was copied, asks
 * first (a slip of the hand would lose it).
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
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const link = invitation?.link ?? null;
  const copied = link !== null && copiedLink === link;
  const close = () => {
    setAsking(false);
    onClose();
  };
  /** Escape or a click outside: closes a copied link; otherwise asks. */
  const dismiss = (event: Event) => {
    if (copied) return;
    event.preventDefault();
    setAsking(true);
  };
  return (
    <Dialog open={invitation !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent
        onEscapeKeyDown={dismiss}
        onInteractOutside={dismiss}
        onCloseAutoFocus={(event) => {
          if (!returnFocus.current?.isConnected) return;
          event.preventDefault();
          returnFocus.current.focus();
        }}
      >
        <DialogTitle>Invitation link for {email}</DialogTitle>
        <DialogDescription>
          {invitation?.mail?.status === 'sent'
            ? `An email with this link was sent to ${email}. You can pass it on as well: `
            : `Pass this link on to ${email} yourself, over a channel you trust: `}
          with it they choose their own password and are signed in. It works once, until{' '}
          {formatExpiry(invitation?.expiresAt ?? '')}. It is shown only now; if it is lost, send a new one.
        </DialogDescription>
        {invitation?.mail?.status === 'failed' ? (
          <Alert variant="error" role="alert">
            The email could not be sent: {invitation.mail.reason}. Copy the link instead.
          </Alert>
        ) : null}
        {/* Meant to be read and passed on: shown, not behind Reveal (the dialog is the admin's, once). */}
        {invitation ? (
          <SecretField
            label="Invitation link"
            value={invitation.link}
            startRevealed
            onCopied={() => setCopiedLink(invitation.link)}
          />
        ) : null}
        {asking ? (
          <div
            role="alert"
            className="flex flex-col gap-3 rounded-md border border-border bg-muted p-3 text-sm"
            data-testid="invitation-close-question"
          >
            <p>
              Close without copying the link? It is shown only now: once closed, only a new link (which voids
              this one) lets {email} in.
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" autoFocus onClick={() => setAsking(false)}>
                Keep the link open
              </Button>
              <Button type="button" onClick={close}>
                Close without copying
              </Button>
            </div>
          </div>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
