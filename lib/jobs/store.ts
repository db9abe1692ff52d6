/**
 * Reading bulk jobs on the console database: one job's progress, an environment's latest jobs.
 * Framework-free: the console's routes and pages, the runner, the bench and the tests use it alike.
 * Making, steering and emptying a job are their own modules: drafts.ts, job-transitions.ts,
 * result-rows.ts and token-claim.ts.
 */
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { type BulkJobTable, jobsDb, type RowStatus } from './schema';

interface JobCounts {
  /** Rows the job runs (the good ones). */
  total: number;
  invalid: number;
  pending: number;
  sending: number;
  done: number;
  failed: number;
}

export interface JobProgress {
  job: BulkJobTable;
  counts: JobCounts;
  /** Rows settled in the last minute; null before any. */
  ratePerMinute: number | null;
  secondsLeft: number | null;
  invalidRows: { line: number; userGroupId: string | null; problems: string }[];
  failedRows: { line: number; userGroupId: string | null; error: string }[];
}

const LISTED_ROWS = 200;

export async function jobProgress(db: ConsoleDb, id: string, now: Date): Promise<JobProgress | null> {
  const jobs = jobsDb(db);
  const job = await jobs.selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirst();
  if (!job) return null;
  const byStatus = await jobs
    .selectFrom('bulk_job_row')
    .select(['status', (eb) => eb.fn.countAll<number>().as('rows')])
    .where('job_id', '=', id)
    .groupBy('status')
    .execute();
  const count = (status: RowStatus) => Number(byStatus.find((row) => row.status === status)?.rows ?? 0);
  const counts: JobCounts = {
    invalid: count('invalid'),
    pending: count('pending'),
    sending: count('sending'),
    done: count('done'),
    failed: count('failed'),
    total: 0,
  };
  counts.total = counts.pending + counts.sending + counts.done + counts.failed;
  const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
  const recent = await jobs
    .selectFrom('bulk_job_row')
    .select([(eb) => eb.fn.countAll<number>().as('rows'), (eb) => eb.fn.min('finished_at').as('first')])
    .where('job_id', '=', id)
    .where('finished_at', '>=', minuteAgo)
    .executeTakeFirstOrThrow();
  const settled = Number(recent.rows);
  // Over the last minute, or since the first row of it settled when the job is younger.
  const seconds = recent.first ? Math.max(1, (now.getTime() - Date.parse(String(recent.first))) / 1000) : 0;
  const ratePerMinute =
    settled > 0 && job.status === 'running' ? Math.round((settled / Math.max(seconds, 1)) * 60) : null;
  const remaining = counts.pending + counts.sending;
  const secondsLeft = ratePerMinute ? Math.ceil((remaining / ratePerMinute) * 60) : null;
  const listed = (status: 'invalid' | 'failed') =>
    jobs
      .selectFrom('bulk_job_row')
      .select(['source_line', 'user_group_id', 'error'])
      .where('job_id', '=', id)
      .where('status', '=', status)
      .orderBy('row_number')
      .limit(LISTED_ROWS)
      .execute();
  const [invalid, failed] = await Promise.all([listed('invalid'), listed('failed')]);
  return {
    job,
    counts,
    ratePerMinute,
    secondsLeft,
    invalidRows: invalid.map((row) => ({
      line: row.source_line,
      userGroupId: row.user_group_id,
      problems: row.error ?? '',
    })),
    failedRows: failed.map((row) => ({
      line: row.source_line,
      userGroupId: row.user_group_id,
      error: row.error ?? '',
    })),
  };
}

export async function listJobs(db: ConsoleDb, environment: Environment, limit = 50): Promise<BulkJobTable[]> {
  return jobsDb(db)
    .selectFrom('bulk_job')
    .selectAll()
    .where('environment', '=', environment)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
