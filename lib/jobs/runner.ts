/**
 * Runs bulk jobs on the server: rows of running jobs are sent to the User Group Service with
 * bounded concurrency at the environment's pace; each answer is recorded (row, directory, audit
 * entry) in one transaction, which a rotation's worker waits for before its next request, so a
 * token that arrived is never lost. This module looks for jobs and composes the parts that run them:
 *
 * - lease.ts: one instance runs a job at a time; a job whose lease ran out (its console died) is
 *   taken over;
 * - pacer.ts: each environment's requests evenly spaced, shared through Redis between instances;
 * - run-job.ts: one run of a job, its rows sent by send-row.ts and written by write-outcomes.ts
 *   through outcome-writer.ts's group commit;
 * - directory-catch-up.ts: done rows whose directory write failed reach the directory later.
 */

import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { ConsoleMetrics } from '@/lib/metrics/console-metrics';
import type { UserGroupApi } from '@/lib/user-group-api/client';
import { createDirectoryCatchUp } from './directory-catch-up';
import { createLeases } from './lease';
import { createPacer, type Pacer, type SharedSchedule } from './pacer';
import { type JobRunContext, runJob } from './run-job';
import { jobsDb } from './schema';
import type { TokenVault } from './vault';

export interface JobRunnerOptions {
  db: ConsoleDb;
  vault: TokenVault;
  /**
   * The environment's client. Throws when the console has none: an error whose `code` is
   * `environment_not_configured` when it has no API key; the job pauses for that reason.
   */
  api: (environment: Environment) => UserGroupApi;
  /** Requests per minute in an environment; null: unlimited. */
  pace: (environment: Environment) => number | null;
  /** Where the paces' slots are taken: with Redis, one schedule per environment for every instance. */
  paceSlots?: SharedSchedule['slots'];
  /** Requests in flight per job. */
  concurrency: number;
  log: (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void;
  /** For tests: how long a lease lasts and how often running jobs are looked for. */
  leaseMs?: number;
  pollMs?: number;
  /** What the leases and the paces read and wait on: the server's (lib/clock.ts). */
  clock: Clock;
  /**
   * Where settled rows are counted: the console's registry, handed down by its composition root;
   * unset (the bench, tests), they are not counted.
   */
  metrics?: { bulkRows: Pick<ConsoleMetrics['bulkRows'], 'inc'> };
}

export interface JobRunner {
  /** Looks for running jobs now and every poll interval. */
  start(): void;
  /** Looks now (after a person started or resumed a job). */
  wake(): void;
  /** Stops taking rows and waits for those in flight. */
  stop(): Promise<void>;
  /** Resolves once the look for jobs under way (if any) has ended: what it could claim, it has. */
  looked(): Promise<void>;
  /**
   * Resolves once no look, no run and no directory catch-up is under way: every job this runner
   * took has stopped or ended.
   */
  idle(): Promise<void>;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log } = options;
  const clock = options.clock;
  const jobs = jobsDb(db);
  const leases = createLeases(jobs, options.leaseMs ?? 10_000, clock);
  const pollMs = options.pollMs ?? 2_000;
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const pacers = new Map<Environment, Pacer>();
  const pacer = (environment: Environment) => {
    let found = pacers.get(environment);
    if (!found) {
      const slots = options.paceSlots;
      found = createPacer(options.pace(environment), slots && { slots, name: environment }, clock);
      pacers.set(environment, found);
    }
    return found;
  };

  const directory = createDirectoryCatchUp({ jobs, log, stopping: () => stopped, clock });

  const context: JobRunContext = {
    db,
    vault: options.vault,
    leases,
    api: options.api,
    pacer,
    concurrency: options.concurrency,
    log,
    metrics: options.metrics ?? { bulkRows: { inc: () => undefined } },
    stopping: () => stopped,
    directoryDue: () => directory.markDue(),
    clock,
  };

  async function poll(): Promise<void> {
    if (stopped) return;
    directory.run();
    for (const id of await leases.claimable()) {
      if (running.has(id) || stopped || !(await leases.claim(id))) continue;
      const run = runJob(context, id)
        .catch((error: unknown) =>
          log('error', { jobId: id, err: { name: (error as Error)?.name } }, 'bulk job stopped by an error'),
        )
        .finally(() => running.delete(id));
      running.set(id, run);
    }
  }

  let looking: Promise<void> = Promise.resolve();
  function safePoll() {
    const look = looking
      .then(poll)
      .catch((error: unknown) =>
        log('error', { err: { name: (error as Error)?.name } }, 'could not look for bulk jobs'),
      );
    looking = look;
  }

  return {
    start() {
      stopped = false;
      timer ??= setInterval(safePoll, pollMs);
      timer.unref?.();
      safePoll();
    },
    wake: safePoll,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled(running.values());
      await directory.settled();
    },
    looked: () => looking,
    async idle() {
      for (;;) {
        const look = looking;
        await look;
        await Promise.allSettled(running.values());
        await directory.settled();
        if (look === looking && running.size === 0) return;
      }
    },
  };
}
