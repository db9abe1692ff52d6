/**
 * AUDIT_RETENTION_DAYS: entries older than that many days are deleted, a small batch at a time
 * (the event loop and the other writers get their turn between batches), and the pruning is itself
 * on record, written before it runs: how many entries, up to when. Unset, nothing is pruned. Every
 * console prunes on its own timer; a second one finds nothing left and writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { type Clock, realClock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { plural } from '@/lib/plural';
import type { AuditLog } from './audit-log';

const DAY_MS = 86_400_000;
const BATCH = 2_000;
/** The first pass soon after start, then one an hour. */
const FIRST_AFTER_MS = 60_000;
const EVERY_MS = 3_600_000;

/** Deletes the entries written before `before` (an ISO time), BATCH at a time; answers how many. */
async function pruneAuditEntries(db: ConsoleDb, before: string, batchSize = BATCH): Promise<number> {
  let pruned = 0;
  for (;;) {
    const batch = await db
      .selectFrom('audit_event')
      .select('id')
      .where('at', '<', before)
      .orderBy('at')
      .limit(batchSize)
      .execute();
    if (batch.length === 0) return pruned;
    await db
      .deleteFrom('audit_event')
      .where(
        'id',
        'in',
        batch.map((row) => row.id),
      )
      .execute();
    pruned += batch.length;
    if (batch.length < batchSize) return pruned;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface Retention {
  db: ConsoleDb;
  auditLog: Pick<AuditLog, 'audited'>;
  days: number;
  clock?: Clock;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** One pass: nothing is written when nothing is old enough. Answers how many were pruned. */
export async function pruneOnce({ db, auditLog, days, clock = realClock }: Retention): Promise<number> {
  const before = new Date(clock.now() - days * DAY_MS).toISOString();
  const old = await db
    .selectFrom('audit_event')
    .select('id')
    .where('at', '<', before)
    .limit(1)
    .executeTakeFirst();
  if (!old) return 0;
  return auditLog.audited(
    {
      action: 'audit.prune',
      operator: null,
      requestId: randomUUID(),
      detail: `entries before ${before} (AUDIT_RETENTION_DAYS=${days})`,
    },
    () => pruneAuditEntries(db, before),
    {
      settled: (pruned) => ({
        outcome: 'success',
        detail: `${plural(pruned, 'entry')} before ${before} pruned (AUDIT_RETENTION_DAYS=${days})`,
      }),
    },
  );
}

/** Prunes soon after start and every hour after, until stopped. */
export function startAuditRetention(retention: Retention): { stop(): void } {
  const { clock = realClock } = retention;
  const stopped = new AbortController();
  void (async () => {
    await clock.sleep(FIRST_AFTER_MS, stopped.signal);
    while (!stopped.signal.aborted) {
      try {
        const pruned = await pruneOnce(retention);
        if (pruned > 0) retention.log('pruned the audit log', { pruned, days: retention.days });
      } catch (error) {
        // The entry could not be written (nothing was pruned) or a batch failed: next hour again.
        retention.log('could not prune the audit log', { err: { name: (error as Error)?.name } });
      }
      await clock.sleep(EVERY_MS, stopped.signal);
    }
  })();
  return { stop: () => stopped.abort() };
}
