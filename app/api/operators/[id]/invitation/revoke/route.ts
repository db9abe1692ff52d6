import { consoleRoutes } from '@/lib/console-api/routes';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { invitedOperator } from '@/lib/operators/server';
import { removeOperator } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';

/**
 * Withdraws an invitation not yet accepted, on record first: the link stops working and the
 * operator, who never came in, is removed (an admin adds them again to invite them again).
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.revokeInvitation,
    load: invitedOperator,
    audit: {
      action: 'invitation.void',
      request: (_body, target) => ({ detail: `${target.email}: withdrawn, operator removed` }),
    },
  },
  async ({ request, subject: target, server }) => {
    await voidOpenInvitations(server.database.db, target.id, new Date(server.clock.now()));
    await removeOperator(server, target.id, request.headers);
    return { done: true as const };
  },
);
