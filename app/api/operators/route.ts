import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator, withoutLink } from '@/lib/invitations/server';
import type { InvitationLink } from '@/lib/operators/contract';
import { createOperator, listOperators } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';

export const GET = consoleRoute(consoleRoutes.listOperators, async ({ server }) => ({
  operators: await listOperators(server),
}));

/**
 * Adds an operator and answers their invitation link, shown to the admin once; on record first, so
 * no operator or link appears that the log does not name (the link has its own entry). The operator
 * has no password until they choose one through the link.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.createOperator,
    audit: { action: 'operator.create', request: (body) => ({ detail: `${body.email} as ${body.role}` }) },
    approval: {
      action: (body) => (body.role === 'admin' ? 'grant-admin' : null),
      subject: (body) => `new operator ${body.email} as admin`,
      approverSees: ({ invitation, ...rest }: { invitation: InvitationLink }) => ({
        ...rest,
        invitation: withoutLink(invitation),
      }),
    },
  },
  async ({ request, operator, requestId, body, server }) => {
    const created = await createOperator(server, body, request.headers);
    const invitation = await inviteOperator(server, operator, requestId, created, 'new operator');
    return Response.json(
      { operator: { ...created, invitationExpiresAt: invitation.expiresAt }, invitation },
      { status: 201 },
    );
  },
);
