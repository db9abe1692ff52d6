import { z } from 'zod';
import type { ApprovalRule } from '@/lib/approvals/contract';
import { approvingRoles } from '@/lib/approvals/policy';
import { type Role, roles } from '@/lib/roles';
import { ConfigError, optional, type ParsedEnv } from './env-values';

/**
 * SCIM 2.0 provisioning (lib/scim): on when SCIM_TOKEN is set, off (every /api/scim/v2 path 404)
 * otherwise. The identity provider's groups become roles by SCIM_GROUP_ROLES.
 */
export interface ScimConfig {
  /** The one bearer token the identity provider sends; compared as a hash, in constant time. */
  token: string;
  /** A group's display name → the role its members get (the highest of their groups wins). */
  groupRoles: ReadonlyMap<string, Role>;
  /** The role of a provisioned operator in no mapped group. */
  defaultRole: Role;
}

const MIN_TOKEN_LENGTH = 32;

export const scimEnv = {
  SCIM_TOKEN: optional(
    z.string().min(MIN_TOKEN_LENGTH, { error: `SCIM_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters` }),
  ),
  SCIM_GROUP_ROLES: optional(z.string()),
  SCIM_DEFAULT_ROLE: optional(
    z.enum(roles, { error: `SCIM_DEFAULT_ROLE must be one of ${roles.join(', ')}` }),
  ),
};

/** `Console Admins=admin,Console Support=support`: names may hold spaces, never `=` or `,`. */
function parseGroupRoles(text: string | undefined): Map<string, Role> {
  const mapping = new Map<string, Role>();
  for (const pair of (text ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.lastIndexOf('=');
    const name = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at < 0 || name === '' || !(roles as readonly string[]).includes(role))
      throw new ConfigError(
        `SCIM_GROUP_ROLES must read "Group name=role,…" with a role among ${roles.join(', ')}`,
      );
    mapping.set(name.toLowerCase(), role as Role);
  }
  return mapping;
}

export const scimConfig = (settings: ParsedEnv<typeof scimEnv>): ScimConfig | null =>
  settings.SCIM_TOKEN === undefined
    ? null
    : {
        token: settings.SCIM_TOKEN,
        groupRoles: parseGroupRoles(settings.SCIM_GROUP_ROLES),
        defaultRole: settings.SCIM_DEFAULT_ROLE ?? 'viewer',
      };

/**
 * What the person starting the console is told about the mapping: a group mapped to admin makes
 * admins with no two-person approval in the console (the directory's own assignment is the only
 * control), and by its display name (a group renamed to it in the directory gives admin too). Under
 * a policy (`rules`, or `true` for grant-admin alone), every mapping to a role that can approve is
 * named, SCIM_DEFAULT_ROLE too: the directory makes approvers without a second person.
 */
export function scimStartupWarnings(
  scim: ScimConfig | null,
  policy: readonly ApprovalRule[] | boolean = false,
): string[] {
  if (!scim) return [];
  const rules: readonly ApprovalRule[] =
    policy === true ? [{ action: 'grant-admin', environment: null }] : policy === false ? [] : policy;
  const approving = rules.some((rule) => rule.action === 'grant-admin') ? approvingRoles(rules) : [];
  const mapped = [...scim.groupRoles].filter(([, role]) => approving.includes(role));
  const byDefault = approving.includes(scim.defaultRole) ? scim.defaultRole : null;
  const made = [...new Set([...mapped.map(([, role]) => role), ...(byDefault ? [byDefault] : [])])];
  const who = made.map((role) => (role === 'admin' ? 'admins' : `${role} people`)).join(' and ');
  const named = [
    ...(mapped.length > 0
      ? [`SCIM_GROUP_ROLES maps ${mapped.map(([name, role]) => `"${name}" to ${role}`).join(', ')}`]
      : []),
    ...(byDefault ? [`SCIM_DEFAULT_ROLE is ${byDefault} (everyone provisioned in no mapped group)`] : []),
  ].join(' and ');
  const adminGroups = [...scim.groupRoles].filter(([, role]) => role === 'admin').map(([name]) => name);
  return [
    ...(made.length > 0
      ? [
          `warning: CONSOLE_REQUIRE_APPROVAL names grant-admin, but ${named}: the directory makes ${who} without a second person, and they can approve; the policy holds only for roles given in the console.`,
        ]
      : []),
    ...(adminGroups.length > 0
      ? [
          `warning: SCIM_GROUP_ROLES maps ${adminGroups.map((name) => `"${name}"`).join(', ')} to admin: the identity provider makes admins without the console's two-person approval (who may join that group in the directory is the control), and by display name: a group renamed to it in the directory gives its members admin.`,
        ]
      : []),
  ];
}
