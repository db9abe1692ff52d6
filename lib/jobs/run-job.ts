/**
 * One run of a job, by the instance that claimed its lease: its unfinished rows in order, taken by
 * `concurrency` workers; each row is sent (send-row.ts) and its answer queued for group commit
 * (outcome-writer.ts writing with write-outcomes.ts) before its worker takes the next. A rotation's
 * answer is committed before its worker goes on: its new token exists nowhere else until then.
 *
 * The run ends when no row is left (the job finishes), the job pauses by itself (a reason from
 * pause-reasons.ts), a person pauses or cancels it, the lease is lost or the runner stops; rows not
 * settled are left `pending`, or `sending` when they may have been done (see send-row.ts).
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { ConsoleMetrics } from '@/lib/metrics/console-metrics';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import { finishJobIfDone, pauseJob } from './job-end';
import type { Leases } from './lease';
import { createOutcomeWriter } from './outcome-writer';
import type { Pacer } from './pacer';
import type { PauseReason } from './pause-reasons';
import { claimRowsAhead, setRowStatus } from './row-claims';
import { jobsDb } from './schema';
import { type Row, sendRow } from './send-row';
import { tokenPlace } from './token-place';
import type { TokenVault } from './vault';
import { type RowOutcome, writeOutcomes } from './write-outcomes';

export interface JobRunContext {
  db: ConsoleDb;
  vault: TokenVault;
  leases: Leases;
  api: (environment: Environment) => UserGroupApi;
  pacer: (environment: Environment) => Pacer;
  concurrency: number;
  log: (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void;
  metrics: { bulkRows: Pick<ConsoleMetrics['bulkRows'], 'inc'> };
  /** True once the runner is stopping: no row is taken after that. */
  stopping: () => boolean;
  /** Told once rows were committed without their directory entry (directory-catch-up.ts). */
  directoryDue: () => void;
  /** What rows are stamped with, and the status checks spaced by. */
  clock: Clock;
}

/** How often a run reads its job's status: a person's pause or cancel takes effect within this. */
const STATUS_CHECK_MS = 250;

export async function runJob(context: JobRunContext, id: string): Promise<void> {
  const { db, vault, log, clock } = context;
  const jobs = jobsDb(db);
  const job = await jobs.selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lease = context.leases.hold(id);
  let checkedAt = Number.NEGATIVE_INFINITY;
  let stillRunning = true;
  const mayContinue = async () => {
    if (context.stopping() || !lease.held()) return false;
    if (clock.monotonic() - checkedAt > STATUS_CHECK_MS) {
      checkedAt = clock.monotonic();
      const now = await jobs.selectFrom('bulk_job').select('status').where('id', '=', id).executeTakeFirst();
      stillRunning = now?.status === 'running';
    }
    return stillRunning;
  };
  const writer = createOutcomeWriter<RowOutcome>({
    clock,
    write: async (batch) => {
      const directoryWritten = await jobs
        .transaction()
        .execute((trx) => writeOutcomes(trx, { job, batch, vault, log, now: new Date(clock.now()) }));
      // Only once committed: a catch-up that looked earlier would not have seen these rows.
      if (!directoryWritten) context.directoryDue();
      const { bulkRows } = context.metrics;
      for (const { outcome } of batch) {
        bulkRows.inc({ environment: job.environment, kind: job.kind, status: outcome.kind });
      }
    },
  });
  const pacer = context.pacer(job.environment);
  try {
    log('info', { jobId: id, environment: job.environment, kind: job.kind }, 'bulk job running');
    const rows = await jobs
      .selectFrom('bulk_job_row')
      .selectAll()
      .where('job_id', '=', id)
      .where('status', 'in', ['pending', 'sending'])
      .orderBy('row_number')
      .execute();
    const workers = Math.max(1, context.concurrency);
    const claims = claimRowsAhead(jobs, id, rows, workers);
    let next = 0;
    let halt: PauseReason | null = null;
    const worker = async () => {
      // The bound is checked after the await: other workers take rows meanwhile.
      while (!halt && (await mayContinue()) && next < rows.length) {
        if (writer.failure() !== undefined) throw writer.failure();
        const index = next++;
        await claims.through(index);
        const row = rows[index] as Row;
        const inputToken = row.input_token
          ? vault.open(row.input_token, tokenPlace(id, row.row_number, 'input'))
          : null;
        const result = await sendRow({
          job,
          row,
          inputToken,
          api: () => context.api(job.environment),
          pace: () => pacer.wait(),
          mayContinue,
        });
        if (result.kind === 'answered') {
          // A failed row's words on screen are the console's; what failed is here, by job and row.
          const cause = result.cause;
          if (cause instanceof UpstreamError) {
            const { kind, message, details } = cause;
            log(
              'warn',
              { jobId: id, row: row.row_number, upstream: { kind, message, fields: details.fields } },
              'the User Group Service refused or failed a row',
            );
          } else if (cause !== undefined) {
            const err = { name: (cause as Error)?.name, message: (cause as Error)?.message };
            log('error', { jobId: id, row: row.row_number, err }, 'the console failed on a row');
          }
          await writer.add({ row, outcome: result.outcome, inputToken }, job.kind === 'rotate');
          continue;
        }
        await setRowStatus(jobs, row, result.status);
        if (result.halt) {
          // The reason's words send a support person to the log for what failed.
          if (!halt && result.halt === 'environment_unusable') {
            const cause = result.cause as Error | undefined;
            log(
              'error',
              { jobId: id, err: { name: cause?.name, message: cause?.message } },
              'could not set up the environment’s User Group Service client',
            );
          }
          halt ??= result.halt;
          return;
        }
      }
    };
    // Every worker leaves its row settled, pending or sending before the job is paused or finished.
    await Promise.all(Array.from({ length: workers }, worker));
    await writer.flush();
    // Claimed but never taken (the job was paused or stopped): not sent, so not uncertain.
    await claims.release(next);
    if (halt) await pauseJob(db, id, halt, log, clock);
    else if (lease.held() && !context.stopping()) await finishJobIfDone(db, job, log, clock);
  } finally {
    // A worker failed: what the others were answered is still worth keeping.
    await writer.flush().catch(() => undefined);
    await lease.release();
  }
}
