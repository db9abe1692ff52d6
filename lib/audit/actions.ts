/**
 * The audit log's actions: those the console routes' definitions declare (`audits`, in their
 * feature's routes.ts), then those written elsewhere (sign-in, SCIM, approvals, jobs, retention),
 * listed here until their routes declare them too. The audit page's server component hands the list
 * to its filter form, so the browser loads no route definitions for it.
 */
import { type DeclaredAuditAction, declaredAuditActions } from '@/lib/console-api/routes';

/** Actions no route definition declares (yet). */
const otherActions = [
  'sign-in',
  'sign-out',
  'operator.create',
  'operator.set-role',
  'operator.disable',
  'operator.enable',
  'invitation.create',
  'invitation.use',
  'invitation.void',
  'password.change',
  'two-factor.enrol',
  'two-factor.backup-codes',
  'two-factor.remove',
  'two-factor.reset',
  'passkey.add',
  'passkey.remove',
  'step-up',
  'session.end',
  'audit.read',
  'audit.export',
  'audit.prune',
  'audit.verify',
  'audit.stream-off',
  'bulk.get-or-create',
  'bulk.rotate',
  'bulk.download',
  'token.identify',
  'operators.export',
  'scim.user.create',
  'scim.user.update',
  'scim.user.deactivate',
  'scim.user.activate',
  'scim.user.delete',
  'scim.group.create',
  'scim.group.update',
  'scim.group.delete',
  'approval.request',
  'approval.approve',
  'approval.reject',
  'approval.withdraw',
  'approval.expire',
] as const;

export type AuditAction = DeclaredAuditAction | (typeof otherActions)[number];

/** Every action, each once: the declared first, in the routes registry's order. */
export const auditActions: readonly AuditAction[] = [...new Set([...declaredAuditActions, ...otherActions])];
