import 'server-only';
import { recordSponsor } from '@/lib/approvals/sponsors';
import { consoleRoutes } from '@/lib/console-api/routes';
import { refuseLinkNowhere } from '@/lib/operators/grants';
import { invitedOperator } from '@/lib/operators/server';
import { removeOperator } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';
import { inviteOperator, withoutLink } from './server';
import { voidOpenInvitations } from './store';

/**
 * The console routes of this feature an admin calls, each declared once with what the server adds
 * to its definition (routes.ts): its audit, approval and what it acts on, and the call it adapts.
 * The app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 * The invited person's two public routes have no session and are served by ./server.ts.
 */

// /api/operators/[id]/invitation
/**
 * A new invitation link for an operator not yet in (the first one lost or expired). The earlier
 * link stops working at once: its voiding is on record, then the new link's making.
 */
export const resendInvitationRoute = consoleRoute(
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

// /api/operators/[id]/invitation/revoke
/**
 * Withdraws an invitation not yet accepted, on record first: the link stops working and the
 * operator, who never came in, is removed (an admin adds them again to invite them again).
 */
export const revokeInvitationRoute = consoleRoute(
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
