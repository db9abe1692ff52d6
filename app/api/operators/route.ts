import { recordSponsor } from '@/lib/approvals/sponsors';
import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator, withoutLink } from '@/lib/invitations/server';
import type { InvitationLink } from '@/lib/operators/contract';
import { refuseLinkNowhere } from '@/lib/operators/grants';
import { createOperator, listOperators } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';

export const GET = consoleRoute(consoleRoutes.listOperators, async ({ server }) => ({
  operators: await listOperators(server),
}));

/**
 * Adds an operator and answers their invitation link, shown to the admin once; on record first, so
 * no operator or link appears that the log does not name (the link has its own entry). The operator
 * has no password until they choose one through the link. Under the policy, inviting someone at a
 * role that can approve waits for a second person, and their link is emailed, never shown.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.createOperator,
    audit: { action: 'operator.create', request: (body) => ({ detail: `${body.email} as ${body.role}` }) },
    approval: {
      action: () => 'grant-admin',
      grants: (body) => body.role,
      subject: (body) => `new operator ${body.email} as ${body.role}`,
      approverSees: ({ invitation, ...rest }: { invitation: InvitationLink }) => ({
        ...rest,
        invitation: withoutLink(invitation),
      }),
      refuse: (body, _subject, server) =>
        refuseLinkNowhere({ email: body.email, role: body.role }, server.invitationMailer, 'invite'),
    },
  },
  async ({ request, operator, requestId, body, server }) => {
    const created = await createOperator(server, body, request.headers);
    // Whoever asked brought them in: they never approve that admin's requests.
    await recordSponsor(
      server.database.db,
      { userId: created.id, sponsorId: operator.id, how: 'invited' },
      new Date(server.clock.now()),
    );
    const invitation = await inviteOperator(server, operator, requestId, created, 'new operator');
    return Response.json(
      { operator: { ...created, invitationExpiresAt: invitation.expiresAt }, invitation },
      { status: 201 },
    );
  },
);
