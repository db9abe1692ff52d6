import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator, withoutLink } from '@/lib/invitations/server';
import { voidOpenInvitations } from '@/lib/invitations/store';
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
    // A fresh link for an admin not yet in is admin power: granting admin as much as a role change.
    approval: {
      action: (_body, target) => (target.role === 'admin' ? 'grant-admin' : null),
      subject: (_body, target) => `a new invitation link for ${target.email}, as admin`,
      approverSees: withoutLink,
    },
  },
  async ({ operator, requestId, subject: target, server }) => {
    await voidOpenInvitations(server.database.db, target.id);
    return inviteOperator(server, operator, requestId, target, 'sent again, the earlier link voided');
  },
);
