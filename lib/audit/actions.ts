/**
 * The audit log's actions: a plain list, so the audit page's filter form lists them without
 * loading the log's migrations (kysely) or zod into the browser.
 */
export const auditActions = [
  'get-or-create',
  'show-token',
  'rotate',
  'delete',
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
  'bulk.get-or-create',
  'bulk.rotate',
  'bulk.download',
  'token.identify',
] as const;
export type AuditAction = (typeof auditActions)[number];
