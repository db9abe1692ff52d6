/**
 * AUDIT_RETENTION_DAYS: entries older than that many days are deleted, a sealed batch at a time
 * (lib/audit-chain: the batch's entries and its seal in one transaction, so that the chain verifies
 * from the first kept seal, whose previous hash it keeps; the event loop and the other writers get
 * their turn between batches), and the pruning is itself on record, written before it runs: how many
 * entries, up to when. Nothing is pruned before it is sealed, nor past a hold (a stream that has not
 * sent it yet), nor the newest seal's batch, which the next seal continues. Unset, nothing is
 * pruned. Every console prunes on its own timer; a second one finds nothing left and writes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '@/lib/clock';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { plural } from '@/lib/plural';
import type { AuditLog } from './audit-log';

const DAY_MS = 86_400_000;
/** The first pass soon after start, then one an hour. */
const FIRST_AFTER_MS = 60_000;
const EVERY_MS = 3_600_000;

/**
 * The highest entry id that may be pruned as far as one part of the console is concerned (a SIEM
 * stream: the last entry it sent), or null for no limit.
 */
type PruneHold = (db: ConsoleDb) => Promise<number | null>;

/** The oldest seal whose batch may go: all older than `before`, within every hold, not the newest. */
async function prunableSeal(db: ConsoleDb, before: string, holds: PruneHold[]) {
  const seals = await db
    .selectFrom('audit_seal')
    .select(['id', 'after_id', 'through_id'])
    .orderBy('id')
    .limit(2)
    .execute();
  const [oldest, next] = seals;
  if (!oldest || !next) return null;
  for (const hold of holds) {
    const highest = await hold(db);
    if (highest !== null && oldest.through_id > highest) return null;
  }
  const younger = await db
    .selectFrom('audit_event')
    .select('id')
    .where('id', '>', oldest.after_id)
    .where('id', '<=', oldest.through_id)
    .where('at', '>=', before)
    .limit(1)
    .executeTakeFirst();
  return younger ? null : oldest;
}

/**
 * Deletes sealed batches older than `before` (an ISO time), oldest first; answers how many entries.
 * Each batch is one transaction on the database's write thread (lib/db/write-thread) where it has
 * one: the event loop answers health checks and sign-ins meanwhile.
 */
async function pruneSealedBatches(
  database: ConsoleDatabase,
  before: string,
  holds: PruneHold[],
  clock: Clock,
): Promise<number> {
  const { db } = database;
  let pruned = 0;
  for (;;) {
    const seal = await prunableSeal(db, before, holds);
    if (!seal) return pruned;
    const started = clock.monotonic();
    const [entries = 0] = await database.writeTransaction([
      db
        .deleteFrom('audit_event')
        .where('id', '>', seal.after_id)
        .where('id', '<=', seal.through_id)
        .compile(),
      db
        .deleteFrom('audit_chain_open')
        .where('event_id', '>', seal.after_id)
        .where('event_id', '<=', seal.through_id)
        .compile(),
      db.deleteFrom('audit_seal').where('id', '=', seal.id).compile(),
    ]);
    pruned += entries;
    // A batch on the main connection holds the event loop while it runs (about 0.1 s for 1,000
    // entries on SQLite), and on the thread it holds the other writes: as long again to everything
    // else before the next, so that they are answered between batches rather than after the pass.
    await new Promise((resolve) => setImmediate(resolve));
    await clock.sleep(clock.monotonic() - started);
  }
}

interface Retention {
  database: ConsoleDatabase;
  auditLog: Pick<AuditLog, 'audited'>;
  days: number;
  clock: Clock;
  /** Further limits on what may go (lib/audit-stream's streamedThrough, when a stream is set). */
  holds?: PruneHold[];
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** One pass: nothing is written when nothing is old enough. Answers how many were pruned. */
export async function pruneOnce({ database, auditLog, days, clock, holds = [] }: Retention): Promise<number> {
  const before = new Date(clock.now() - days * DAY_MS).toISOString();
  if (!(await prunableSeal(database.db, before, holds))) return 0;
  return auditLog.audited(
    {
      action: 'audit.prune',
      operator: null,
      requestId: randomUUID(),
      detail: `entries before ${before} (AUDIT_RETENTION_DAYS=${days})`,
    },
    () => pruneSealedBatches(database, before, holds, clock),
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
  const { clock } = retention;
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
