import 'server-only';
import { grantCovered } from '@/lib/approvals/policy';
import { recordSponsor } from '@/lib/approvals/sponsors';
import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator, withoutLink } from '@/lib/invitations/server';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { plural } from '@/lib/plural';
import { consoleRoute } from '@/lib/server/route';
import { endSessions } from '@/lib/sessions/store';
import { resetSecondFactor } from '@/lib/two-factor/server';
import type { InvitationLink } from './contract';
import { operatorsToCsv } from './csv';
import { refuseLinkNowhere, roleGiven } from './grants';
import { otherOperator, refuseDirectoryManaged, targetOperator } from './server';
import { createOperator, findOperator, listOperators, setOperatorDisabled, setOperatorRole } from './store';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 * An admin's acts on one operator whose definitions sit with their feature (ending their sessions:
 * lib/sessions/routes.ts; resetting their second factor: lib/two-factor/routes.ts) are here too:
 * they load the operator the URL names, as the others here do.
 */

// /api/operators (GET)
export const listOperatorsRoute = consoleRoute(consoleRoutes.listOperators, async ({ server }) => ({
  operators: await listOperators(server),
}));

// /api/operators (POST)
/**
 * Adds an operator and answers their invitation link, shown to the admin once; on record first, so
 * no operator or link appears that the log does not name (the link has its own entry). The operator
 * has no password until they choose one through the link. Under the policy, inviting someone at a
 * role that can approve waits for a second person, and their link is emailed, never shown.
 */
export const createOperatorRoute = consoleRoute(
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

// /api/operators/[id]
/** Changes one operator: `{ role }` or `{ disabled }`, on record before it happens. */
export const updateOperatorRoute = consoleRoute(
  {
    ...consoleRoutes.updateOperator,
    load: targetOperator,
    // Before any approval request: a change the directory owns is refused at once.
    check: (_change, target) => refuseDirectoryManaged(target),
    audit: {
      action: (change) =>
        'role' in change ? 'operator.set-role' : change.disabled ? 'operator.disable' : 'operator.enable',
      request: (change, target) => ({
        detail:
          'role' in change ? `${target.email}: ${target.role ?? 'no role'} → ${change.role}` : target.email,
      }),
    },
    approval: {
      // Raising a role, or enabling someone again, gives what the role may approve: under the policy
      // a grant when that role can approve an action it names (lib/approvals/policy.ts).
      action: (change, target) => (roleGiven(change, target) ? 'grant-admin' : null),
      grants: roleGiven,
      subject: (change, target) =>
        'role' in change
          ? `${target.email} as ${change.role}`
          : `${target.email} enabled again, as ${target.role}`,
      refuse: (change, target, server) => {
        if (target.invitationExpiresAt !== null)
          refuseLinkNowhere(
            { email: target.email, role: roleGiven(change, target) },
            server.invitationMailer,
            'grant',
          );
      },
    },
  },
  async ({ request, operator, requestId, body: change, subject: target, server }) => {
    const db = server.database.db;
    const now = new Date(server.clock.now());
    const given = roleGiven(change, target);
    if (given) {
      // Whoever asked raised them: they never approve that admin's requests.
      await recordSponsor(
        db,
        { userId: target.id, sponsorId: operator.id, how: 'role' in change ? 'role' : 'enabled' },
        now,
      );
    }
    // A link made for a lesser role (shown to whoever invited them) must not open an admin's
    // account, nor one that approves: every open link ends, and a new one goes by email only.
    const endsLinks =
      given !== null && (given === 'admin' || grantCovered(server.config.approvals.rules, given));
    if (endsLinks) await voidOpenInvitations(db, target.id, now);
    if ('role' in change) await setOperatorRole(server, operator.id, target.id, change.role, request.headers);
    else await setOperatorDisabled(server, operator.id, target.id, change.disabled, request.headers);
    if (endsLinks && target.invitationExpiresAt !== null && server.invitationMailer) {
      const raised = { ...target, role: given };
      // Answered to nobody: the email is the only copy.
      await inviteOperator(server, operator, requestId, raised, 'sent again, the earlier link voided');
    }
    return { operator: await findOperator(server, target.id) };
  },
);

// /api/operators/export
/**
 * Every operator as CSV, for an audit (admins only): on record before it is sent, settled with how
 * many operators it held.
 */
export const exportOperatorsRoute = consoleRoute(
  { ...consoleRoutes.exportOperators, audit: { action: 'operators.export' } },
  async ({ server, note }) => {
    const operators = await listOperators(server);
    note({ detail: plural(operators.length, 'operator') });
    const now = new Date(server.clock.now()).toISOString();
    const stamp = now.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return new Response(operatorsToCsv(operators, now), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="operators-${stamp}.csv"`,
      },
    });
  },
);

// /api/operators/[id]/sessions/end
/**
 * An admin ends every session of an operator (a lost laptop), on record first: each of their
 * browsers is signed out on its next request. Their own current session is kept.
 */
export const endOperatorSessionsRoute = consoleRoute(
  {
    ...consoleRoutes.endOperatorSessions,
    load: targetOperator,
    audit: {
      action: 'session.end',
      request: (_body, target) => ({ detail: `all sessions of ${target.email}` }),
    },
  },
  async ({ operator, subject: target, server }) => ({
    ended: await endSessions(server.database.db, target.id, {
      allBut: target.id === operator.id ? operator.session.id : null,
    }),
  }),
);

// /api/operators/[id]/two-factor/reset
/**
 * An admin turns off another operator's second factor (a lost phone), on record first, and ends
 * their sessions. The operator signs in with their password alone and, where their role must have
 * one, enrols again at once.
 */
export const resetSecondFactorRoute = consoleRoute(
  {
    ...consoleRoutes.resetSecondFactor,
    load: otherOperator,
    audit: {
      action: 'two-factor.reset',
      request: (_body, target) => ({ detail: `${target.email}; their sessions ended` }),
    },
  },
  async ({ subject: target, server }) => {
    await resetSecondFactor(server.database, target.id);
    return { done: true as const };
  },
);
