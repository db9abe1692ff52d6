import { z } from 'zod';
import { optional, type ParsedEnv } from './env-values';

export interface AuditConfig {
  /** Entries older than this many days are pruned (lib/audit/retention.ts); null keeps everything. */
  retentionDays: number | null;
  /**
   * AUDIT_SIGNING_KEY: the Ed25519 seed that signs the chain's seals (lib/audit-chain); null: the
   * one generated into DATA_DIR/audit-signing.key.
   */
  signingKey: string | null;
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
  // Checked when the key is read (lib/audit-chain/signing-key.ts): the message must not repeat it.
  AUDIT_SIGNING_KEY: optional(z.string()),
};

export const auditConfig = (settings: ParsedEnv<typeof auditEnv>): AuditConfig => ({
  retentionDays: settings.AUDIT_RETENTION_DAYS ?? null,
  signingKey: settings.AUDIT_SIGNING_KEY ?? null,
});
