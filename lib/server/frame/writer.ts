import 'server-only';
import type { AuditLog } from '@/lib/audit/audit-log';
import type { AuditEntry, AuditSettlement } from '@/lib/audit/store';

/**
 * The frame's one way to write the audit log (the fail-closed writer, lib/audit/audit-log.ts): the
 * audited stage's entries (lib/server/frame/audited.ts composes them), and what it hands the
 * handlers outside the console's stages (OnRecord) and better-auth's sign-in hooks. Typed on the
 * audit log alone, so that the composition root can wire it without a circle of imports.
 */

/** A refusal on record as it is; a refusal is answered whether or not its entry could be written. */
export async function writeRefusal(auditLog: Pick<AuditLog, 'record'>, entry: AuditEntry): Promise<void> {
  await auditLog.record(entry).catch(() => undefined);
}

/** An action's entry `started` before it runs (nothing runs without it), settled after. */
export function writeAudited<T>(
  auditLog: Pick<AuditLog, 'audited'>,
  entry: Omit<AuditEntry, 'outcome'>,
  run: (entryId: number) => Promise<T>,
  settle: { settled?: (result: T) => AuditSettlement | null; refused?: (code: string) => AuditSettlement },
): Promise<T> {
  return auditLog.audited(entry, run, settle);
}

/**
 * What a handler outside the console's stages is handed by the frame to put its actions on record
 * (the sign-in proxy's outcomes, SCIM's changes): the one writer, the fail-closed log, so that no
 * module but the frame and lib/audit writes an entry.
 */
export interface OnRecord {
  /** An outcome on record as it is (a refused sign-in): throws audit_unavailable when it cannot be. */
  outcome(entry: AuditEntry): Promise<void>;
  /**
   * A change on record before it happens (`started`; nothing runs when the entry cannot be written),
   * settled with the outcome `outcomeOf` reads from its result (a refusal the result carries).
   */
  change<T>(
    entry: Omit<AuditEntry, 'outcome'>,
    run: () => Promise<T>,
    outcomeOf: (result: T) => string | Promise<string>,
  ): Promise<T>;
}

export function onRecord(
  server: { auditLog: Pick<AuditLog, 'record' | 'settle'> },
  requestId: string,
): OnRecord {
  const { auditLog } = server;
  return {
    outcome: async (entry) => {
      await auditLog.record(entry);
    },
    change: async (entry, run, outcomeOf) => {
      const id = await auditLog.record({ ...entry, outcome: 'started' });
      const result = await run();
      await auditLog.settle(id, { outcome: await outcomeOf(result) }, requestId);
      return result;
    },
  };
}

/**
 * A sign-in's entry, in two steps around better-auth's session hooks (lib/server/frame/sign-in-record.ts):
 * written `started` before the session exists (fail-closed: no entry, no session), settled once it does.
 */
export const signInEntries = (auditLog: Pick<AuditLog, 'record' | 'settle'>) => ({
  started: (entry: Omit<AuditEntry, 'outcome'>) => auditLog.record({ ...entry, outcome: 'started' }),
  settled: (id: number, outcome: string, requestId: string) => auditLog.settle(id, { outcome }, requestId),
});

/**
 * An entry written `started` by an earlier request, settled by this one (a job's start entry, by
 * its cancel): logged, not thrown, when it cannot be, as the action has happened by then.
 */
export function settleEarlier(
  auditLog: Pick<AuditLog, 'settle'>,
  entryId: number,
  settlement: AuditSettlement,
  requestId: string,
): Promise<void> {
  return auditLog.settle(entryId, settlement, requestId);
}

/** Many outcomes on record at once, all or none (a draft's token look-ups); throws audit_unavailable. */
export function writeMany(auditLog: Pick<AuditLog, 'recordMany'>, entries: AuditEntry[]): Promise<void> {
  return auditLog.recordMany(entries);
}
