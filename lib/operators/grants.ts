/**
 * Which changes of an operator give power that two-person approval guards (a role that can approve,
 * lib/approvals/policy.ts), and the refusal of a grant whose link could reach nobody but its
 * requester. Plain module: the operators page asks the same questions as the routes.
 */
import { ConsoleError } from '@/lib/console-error';
import type { OperatorSummary } from '@/lib/operators/contract';
import { hasRole, type Role } from '@/lib/roles';

type Target = Pick<OperatorSummary, 'role' | 'disabled'>;
type Change = { role: Role } | { disabled: boolean };

/** The role a change gives that the operator does not hold yet: raised, or enabled again. */
export function roleGiven(change: Change, target: Target): Role | null {
  if ('role' in change)
    return target.role === null || !hasRole(target.role, change.role) ? change.role : null;
  return !change.disabled && target.disabled ? target.role : null;
}

/**
 * A grant for someone not in yet, where no mail server sends their link: the link would be shown
 * to the admin who asked (or to the approver), who could accept it and hold the account. Refused at
 * once with the way that works, never a request that leads nowhere.
 */
export function refuseLinkNowhere(
  target: { email: string; role: Role | null },
  mailer: unknown,
  what: 'invite' | 'new link' | 'grant',
): void {
  if (mailer) return;
  const role = target.role ?? 'admin';
  const start =
    what === 'invite'
      ? `Without SMTP_URL, an invitation as ${role} would show its link to you or to the approver, not to ${target.email} alone.`
      : what === 'new link'
        ? `Without SMTP_URL, a new link for ${target.email} (${role}) would be shown to you or to the approver, not to them alone.`
        : `${target.email} has not accepted their invitation yet, and without SMTP_URL their ${role} link would be shown to you or to the approver, not to them alone.`;
  throw new ConsoleError(
    'conflict',
    `${start} Invite them as viewer with their own link; once they have signed in, ask to make them ${role}. Or set SMTP_URL, so that links are emailed to the operator only.`,
  );
}
