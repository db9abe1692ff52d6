/**
 * The job runner's one way to write the audit log: a batch's row entries, in the batch's own
 * transaction (they commit with the rows' records, or neither does), and a job's own entry settled
 * as the job ends. Framework-free like the runner (the bench runs it outside Next), so on the
 * audit store rather than the request-side writer, and failing as that writer does: a row entry that
 * cannot be written fails its batch (nothing is recorded done without its entry); a settlement that
 * cannot be written is logged, the job having ended by then. Requests about jobs (a start, a cancel,
 * the token look-ups of a draft) write through the frame (lib/server/frame/writer.ts).
 */
import {
  type AuditEntry,
  type AuditSettlement,
  recordAuditEvents,
  settleAuditEvent,
} from '@/lib/audit/store';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';

type Log = (level: 'error', fields: Record<string, unknown>, message: string) => void;

interface JobRecord {
  /** A batch's entries, one per row, in `db` (the batch's transaction); throws when they cannot be written. */
  rows(entries: AuditEntry[]): Promise<void>;
  /** The job's own entry (written `started` when a person started it) completed as the job ends. */
  ended(entryId: number, settlement: AuditSettlement): Promise<void>;
}

export function jobRecord(db: ConsoleDb, jobId: string, log: Log, clock: Pick<Clock, 'now'>): JobRecord {
  const failed = (error: unknown, message: string) =>
    log('error', { jobId, requestId: jobId, err: { name: (error as Error)?.name } }, message);
  return {
    rows: async (entries) => {
      if (entries.length === 0) return;
      try {
        await recordAuditEvents(db, entries, clock);
      } catch (error) {
        failed(error, 'could not write the audit log');
        throw error;
      }
    },
    ended: async (entryId, settlement) => {
      try {
        await settleAuditEvent(db, entryId, settlement, clock);
      } catch (error) {
        failed(error, 'could not complete an audit entry');
      }
    },
  };
}
