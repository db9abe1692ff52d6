import { recordSponsor } from '@/lib/approvals/sponsors';
import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator, withoutLink } from '@/lib/invitations/server';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { refuseLinkNowhere } from '@/lib/operators/grants';
import { invitedOperator } from '@/lib/operators/server';
import { consoleRoute } from '@/lib/server/route';

/**
 * A new invitation link for an operator not yet in (the first one lost or expired). The earlier
 * link stops working at once: its voiding is on record, then the new link's making.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.resendInvitation,
    load: invitedOperator,
    audit: {
      action: 'invitation.void',
      request: (_body, target) => ({ detail: `${target.email}: sent again` }),
    },
    // A fresh link for someone not yet in is their account: under the policy, for a role that can
    // approve, it waits for a second person and goes by email only (without SMTP_URL: refused).
    approval: {
      action: () => 'grant-admin',
      grants: (_body, target) => target.role,
      subject: (_body, target) => `a new invitation link for ${target.email}, as ${target.role}`,
      approverSees: withoutLink,
      refuse: (_body, target, server) => refuseLinkNowhere(target, server.invitationMailer, 'new link'),
    },
  },
  async ({ operator, requestId, subject: target, server }) => {
    const now = new Date(server.clock.now());
    // Whoever holds a link may hold the account: its sender never approves that admin's requests.
    await recordSponsor(
      server.database.db,
      { userId: target.id, sponsorId: operator.id, how: 'new link' },
      now,
    );
    await voidOpenInvitations(server.database.db, target.id, now);
    return inviteOperator(server, operator, requestId, target, 'sent again, the earlier link voided');
  },
);
