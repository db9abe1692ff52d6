/**
 * The audit log's actions: those the console routes' definitions declare (`audits`, in their
 * feature's routes.ts), then those no definition of the console's writes (sign-in, SCIM, approval
 * decisions, retention), listed here. The audit page's server component hands the list
 * to its filter form, so the browser loads no route definitions for it.
 */
import { type DeclaredAuditAction, declaredAuditActions } from '@/lib/console-api/routes';

/** Actions no route definition of the console's declares. */
const otherActions = [
  // The auth proxy's (better-auth's endpoints, no definition of the console's).
  'sign-in',
  'sign-out',
  'password.change',
  // The log's own upkeep: retention and the stream switched off, from the server and the CLI.
  'audit.prune',
  'audit.stream-off',
  // SCIM's routes, defined by the SCIM protocol rather than the console's definitions.
  'scim.user.create',
  'scim.user.update',
  'scim.user.deactivate',
  'scim.user.activate',
  'scim.user.delete',
  'scim.group.create',
  'scim.group.update',
  'scim.group.delete',
  // The approval stage's, on whichever route waits (lib/approvals/frame.ts), and the expiry timer's.
  'approval.request',
  'approval.approve',
  'approval.reject',
  'approval.withdraw',
  'approval.expire',
] as const;

export type AuditAction = DeclaredAuditAction | (typeof otherActions)[number];

/** Every action, each once: the declared first, in the routes registry's order. */
export const auditActions: readonly AuditAction[] = [...new Set([...declaredAuditActions, ...otherActions])];
