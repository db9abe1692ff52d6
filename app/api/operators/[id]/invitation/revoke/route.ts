import { findOperator, removeOperator } from '@/lib/auth/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { consoleRoute } from '@/lib/server/route';

/**
 * Withdraws an invitation not yet accepted, on record first: the link stops working and the
 * operator, who never came in, is removed (an admin adds them again to invite them again).
 */
export const POST = consoleRoute(
  consoleRoutes.revokeInvitation,
  async ({ request, operator, requestId, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    if (target.invitationExpiresAt === null)
      throw new ConsoleError('conflict', `${target.email} has no open invitation: they are in already.`);
    await server.auditLog.onRecord(
      {
        action: 'invitation.void',
        operator,
        requestId,
        detail: `${target.email}: withdrawn, operator removed`,
      },
      async () => {
        await voidOpenInvitations(server.database.db, target.id);
        await removeOperator(server, target.id, request.headers);
      },
    );
    return { done: true as const };
  },
);
