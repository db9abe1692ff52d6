import { findOperator } from '@/lib/auth/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { inviteOperator } from '@/lib/server/invitations';
import { consoleRoute } from '@/lib/server/route';

/**
 * A new invitation link for an operator not yet in (the first one lost or expired). The earlier
 * link stops working at once: its voiding is on record, then the new link's making.
 */
export const POST = consoleRoute(
  consoleRoutes.resendInvitation,
  async ({ operator, requestId, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    if (target.invitationExpiresAt === null)
      throw new ConsoleError('conflict', `${target.email} has no open invitation: they are in already.`);
    await server.auditLog.onRecord(
      { action: 'invitation.void', operator, requestId, detail: `${target.email}: sent again` },
      () => voidOpenInvitations(server.database.db, target.id),
    );
    return inviteOperator(server, operator, requestId, target, 'sent again, the earlier link voided');
  },
);
