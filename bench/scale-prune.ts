/**
 * Retention pruning at scale (issue 44, item 4): the large console started again on its database with
 * AUDIT_RETENTION_DAYS set so that about BENCH_SCALE_PRUNE of its oldest entries are past it, health
 * asked every 100 ms at rest (before the first pass, a minute after start) and while the pass runs,
 * until the pass's own audit entry says it is done. Pruning goes a sealed batch at a time and yields
 * between batches (lib/audit/retention.ts): health is the figure that says whether it holds the console.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { realClock } from '@/lib/clock';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { BenchConsole } from './console-server';
import { type Responsiveness, responsiveness } from './scale-figures';
import { AUDIT_START_S, AUDIT_STEP_S } from './scale-load';
import { health, timed } from './scale-measure';

const DAY_S = 86_400;
const HEALTH_GAP_MS = 100;
const POLL_MS = 500;

export interface PruneRun {
  /** Entries older than the retention when the console started, and how many the pass deleted. */
  due: number;
  pruned: number;
  days: number;
  seconds: number;
  entriesPerSecond: number;
  /** Health before the pass (`atRest`) and while it ran (`underLoad`), and the slowest of each. */
  health: Responsiveness;
  healthMaxMs: { atRest: number; pruning: number };
}

/** Whole days that put the cutoff after about `entries` of the loaded entries (at least one day). */
export function retentionDaysFor(entries: number, nowS: number): number {
  const cutoffS = AUDIT_START_S + entries * AUDIT_STEP_S;
  return Math.max(1, Math.floor((nowS - cutoffS) / DAY_S));
}

const slowest = (samples: number[]) => Math.round(Math.max(...samples) * 10) / 10;

/**
 * The passes' audit entries (each started, then settled with how many it pruned): one per console
 * server in the process (Next's route handlers and pages each build one), which share the work.
 */
async function prunePasses(database: ConsoleDatabase) {
  const passes = await database.db
    .selectFrom('audit_event')
    .select(['outcome', 'detail'])
    .where('action', '=', 'audit.prune')
    .execute();
  const failed = passes.find((pass) => pass.outcome !== 'started' && pass.outcome !== 'success');
  if (failed) throw new Error(`a pruning pass ended ${failed.outcome}`);
  return {
    seen: passes.length > 0,
    done: passes.length > 0 && passes.every((pass) => pass.outcome === 'success'),
    pruned: passes.reduce(
      (sum, pass) => sum + Number(/^([\d,]+) entr/.exec(pass.detail ?? '')?.[1]?.replaceAll(',', '') ?? 0),
      0,
    ),
  };
}

/**
 * `restart(env)` stops the large console and starts it again on the same database with `env` added.
 * Bounded by `timeoutMs` from the restart.
 */
export async function pruneAtScale(
  database: ConsoleDatabase,
  entries: number,
  restart: (env: Record<string, string>) => Promise<BenchConsole>,
  timeoutMs: number,
): Promise<PruneRun> {
  const days = retentionDaysFor(entries, realClock.now() / 1000);
  const cutoff = new Date((realClock.now() / 1000 - days * DAY_S) * 1000).toISOString();
  const due = await sql<{ due: number }>`select count(*) as due from audit_event where at < ${cutoff}`
    .execute(database.db)
    .then((result) => Number(result.rows[0]?.due ?? 0));
  console.info(
    `scale: pruning ${due} entries (AUDIT_RETENTION_DAYS=${days}) on the large console, restarted`,
  );
  const target = await restart({ AUDIT_RETENTION_DAYS: String(days) });
  const deadline = performance.now() + timeoutMs;
  const atRest: number[] = [];
  const during: number[] = [];
  let started = 0;
  let lastPoll = 0;
  for (;;) {
    if (performance.now() > deadline) throw new Error(`pruning ${due} entries took past its time limit`);
    const ms = await timed(() => health(target));
    if (performance.now() - lastPoll >= POLL_MS) {
      lastPoll = performance.now();
      const passes = await prunePasses(database);
      if (passes.seen && !started) started = performance.now();
      if (passes.done) {
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        const { pruned } = passes;
        if (during.length === 0) during.push(ms);
        return {
          due,
          pruned,
          days,
          seconds,
          entriesPerSecond: Math.round(pruned / Math.max(seconds, 0.1)),
          health: responsiveness('GET /api/health', atRest, during),
          healthMaxMs: { atRest: slowest(atRest), pruning: slowest(during) },
        };
      }
    }
    (started ? during : atRest).push(ms);
    await sleep(HEALTH_GAP_MS);
  }
}
