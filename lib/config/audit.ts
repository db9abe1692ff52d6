import { z } from 'zod';
import { optional, type ParsedEnv } from './env-values';

export interface AuditConfig {
  /** Entries older than this many days are pruned (lib/audit/retention.ts); null keeps everything. */
  retentionDays: number | null;
}

/** The audit log's retention: unset, every entry is kept, as before it could be set. */
export const auditEnv = {
  AUDIT_RETENTION_DAYS: optional(
    z.coerce
      .number({ error: 'AUDIT_RETENTION_DAYS must be a number of days' })
      .int({ error: 'AUDIT_RETENTION_DAYS must be a whole number of days' })
      .min(1, { error: 'AUDIT_RETENTION_DAYS must be at least 1' })
      .max(36_500, { error: 'AUDIT_RETENTION_DAYS must be at most 36500 (a hundred years)' }),
  ),
};

export const auditConfig = (settings: ParsedEnv<typeof auditEnv>): AuditConfig => ({
  retentionDays: settings.AUDIT_RETENTION_DAYS ?? null,
});
