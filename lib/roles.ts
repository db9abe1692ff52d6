/**
 * Who may do what: the one table the server checks on every page and route handler. Plain module
 * (no server-only): client components read it to hide what a role cannot use, but the server
 * check is what guards.
 *
 * Roles are ordered; a permission names the least role that holds it.
 */
import * as z from 'zod/mini';

export const roles = ['viewer', 'support', 'admin'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

export const roleDescriptions: Record<Role, string> = {
  viewer: 'Reads the directory of user groups and the audit log; sees no token and changes nothing.',
  support: 'Also gets or creates user groups, copies and rotates their tokens.',
  admin: 'Also deletes user groups and manages operators.',
};

export const permissionMinimumRole = {
  /**
   * Use the console at all: see the directory, group pages without tokens, jobs and the audit log,
   * and look after one's own account (password, second factors, passkeys, sessions).
   */
  'console:use': 'viewer',
  'user-groups:get-or-create': 'support',
  'user-groups:rotate': 'support',
  'user-groups:reveal-token': 'support',
  'user-groups:delete': 'admin',
  'operators:manage': 'admin',
  /** Recompute the audit log's chain of seals from the audit page (lib/audit-chain). */
  'audit:verify': 'admin',
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof permissionMinimumRole;

/** What each permission allows, in a refusal's words ("Your role may not …"). */
export const permissionWords: Record<Permission, string> = {
  'console:use': 'use the console',
  'user-groups:get-or-create': 'get or create user groups',
  'user-groups:rotate': 'rotate tokens',
  'user-groups:reveal-token': 'see tokens',
  'user-groups:delete': 'delete user groups',
  'operators:manage': 'manage operators',
  'audit:verify': 'verify the audit log',
};

const rank: Record<Role, number> = { viewer: 0, support: 1, admin: 2 };

/** Unknown or missing roles hold nothing: a row edited by hand cannot grant access by accident. */
export function parseRole(value: unknown): Role | null {
  const parsed = roleSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function hasRole(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && rank[role] >= rank[minimum];
}

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return hasRole(role, permissionMinimumRole[permission]);
}
