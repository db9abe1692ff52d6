/**
 * What the policy (CONSOLE_REQUIRE_APPROVAL) makes a grant: giving someone a role that can approve
 * an action the policy names. A second account is not a second person, so making one that can
 * approve is itself a request, under `grant-admin`. Plain module: the browser imports it.
 */
import { type ApprovalRule, approvalPermission } from '@/lib/approvals/contract';
import { can, type Role, roles } from '@/lib/roles';

/** The roles that may approve some action the policy names (any environment it names). */
export function approvingRoles(rules: readonly ApprovalRule[]): Role[] {
  return roles.filter((role) => rules.some((rule) => can(role, approvalPermission[rule.action])));
}

/** Whether giving `role` to someone waits for a second person: the policy names grant-admin and the role approves. */
export function grantCovered(rules: readonly ApprovalRule[], role: Role | null): boolean {
  return (
    role !== null &&
    rules.some((rule) => rule.action === 'grant-admin') &&
    approvingRoles(rules).includes(role)
  );
}

/**
 * Why a policy cannot hold, or null: `delete` or `bulk-rotate` without `grant-admin` lets one admin
 * make a second account (an admin, or a support person for bulk rotations) and approve with it.
 */
export function policyFlaw(actions: readonly string[]): string | null {
  if (actions.length === 0 || actions.includes('grant-admin')) return null;
  const named = [...new Set(actions)].join(' and ');
  return `CONSOLE_REQUIRE_APPROVAL names ${named} without grant-admin: one admin alone could invite a second account that approves their own requests. Add grant-admin (for example delete:Customer,grant-admin), or leave CONSOLE_REQUIRE_APPROVAL unset.`;
}
