/**
 * How a run of a job ends by itself: paused for one of the closed set of reasons, or finished once
 * no row is left to send. Both change only a job still running: a person's pause or cancel, made
 * meanwhile, stands.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { eraseInputTokens } from './job-transitions';
import { jobRecord } from './on-record';
import type { PauseReason } from './pause-reasons';
import { type BulkJobTable, jobsDb } from './schema';

type Log = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void;

export async function pauseJob(
  db: ConsoleDb,
  jobId: string,
  reason: PauseReason,
  log: Log,
  clock: Clock,
): Promise<void> {
  await jobsDb(db)
    .updateTable('bulk_job')
    .set({ status: 'paused', paused_reason: reason, updated_at: new Date(clock.now()).toISOString() })
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .execute();
  log('warn', { jobId, reason }, 'bulk job paused by itself');
}

/** Finishes the job when no row is pending or sending: its pasted tokens erased, its audit entry settled. */
export async function finishJobIfDone(
  db: ConsoleDb,
  job: BulkJobTable,
  log: Log,
  clock: Clock,
): Promise<void> {
  const jobs = jobsDb(db);
  const count = async (statuses: Array<'pending' | 'sending' | 'failed'>) => {
    const { rows } = await jobs
      .selectFrom('bulk_job_row')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .where('job_id', '=', job.id)
      .where('status', 'in', statuses)
      .executeTakeFirstOrThrow();
    return Number(rows);
  };
  if ((await count(['pending', 'sending'])) > 0) return;
  const now = new Date(clock.now()).toISOString();
  const finished = await jobs
    .updateTable('bulk_job')
    .set({ status: 'finished', finished_at: now, updated_at: now })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(finished.numUpdatedRows) === 0) return;
  await eraseInputTokens(db, job.id);
  const failed = await count(['failed']);
  // Jobs started outside a route (the bench, tests) have no entry of their own.
  if (job.audit_event_id !== null)
    await jobRecord(db, job.id, log, clock).ended(job.audit_event_id, {
      outcome: failed === 0 ? 'success' : 'failed_rows',
    });
  log('info', { jobId: job.id, failed }, 'bulk job finished');
}
