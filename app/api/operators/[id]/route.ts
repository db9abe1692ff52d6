import { grantCovered } from '@/lib/approvals/policy';
import { recordSponsor } from '@/lib/approvals/sponsors';
import { consoleRoutes } from '@/lib/console-api/routes';
import { inviteOperator } from '@/lib/invitations/server';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { refuseLinkNowhere, roleGiven } from '@/lib/operators/grants';
import { refuseDirectoryManaged, targetOperator } from '@/lib/operators/server';
import { findOperator, setOperatorDisabled, setOperatorRole } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';

/** Changes one operator: `{ role }` or `{ disabled }`, on record before it happens. */
export const PATCH = consoleRoute(
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
