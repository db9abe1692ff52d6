/**
 * Done rows the directory has not learnt: their directory write failed (write-outcomes.ts commits
 * the rows anyway, marked with a null directory_at), and they are written to the directory later,
 * as the outcome write would have. Looked for when a runner starts (its console may have died
 * before catching up) and at the next poll after such a failure; until it succeeds, at every poll.
 */

import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { recordGroupsSeen } from '@/lib/directory/store';
import type { JobsDb } from './schema';
import { directoryChangeOf } from './write-outcomes';

export interface DirectoryCatchUp {
  /** Rows were committed without their directory entry: look again at the next run(). */
  markDue(): void;
  /** Catches up when due, unless a catch-up is under way; never throws (failures are logged). */
  run(): void;
  /** Waits for a catch-up under way. */
  settled(): Promise<void>;
}

export interface DirectoryCatchUpOptions {
  jobs: JobsDb;
  log: (level: 'error', fields: Record<string, unknown>, message: string) => void;
  /** Asked between batches: a runner that is stopping ends the catch-up, which stays due. */
  stopping: () => boolean;
  /** What a row's catch-up is stamped with. */
  clock: Clock;
  batchSize?: number;
}

export function createDirectoryCatchUp({
  jobs,
  log,
  stopping,
  clock,
  batchSize = 500,
}: DirectoryCatchUpOptions): DirectoryCatchUp {
  // Due until looked for: a console may have died with rows due.
  let due = true;
  let running: Promise<void> | undefined;

  async function catchUp(): Promise<void> {
    if (!due) return;
    due = false;
    try {
      let more = true;
      while (more && !stopping()) more = await catchUpBatch();
      if (more) due = true;
    } catch (error) {
      due = true;
      throw error;
    }
  }

  /** Answers whether there may be more. */
  async function catchUpBatch(): Promise<boolean> {
    const rows = await jobs
      .selectFrom('bulk_job_row')
      .innerJoin('bulk_job', 'bulk_job.id', 'bulk_job_row.job_id')
      .select([
        'bulk_job_row.job_id',
        'bulk_job_row.row_number',
        'bulk_job_row.user_group_id',
        'bulk_job_row.mapping',
        'bulk_job_row.result_name',
        'bulk_job_row.result_team_id',
        'bulk_job_row.result_fingerprint',
        'bulk_job_row.result_properties',
        'bulk_job_row.new_user_group',
        'bulk_job_row.finished_at',
        'bulk_job.environment',
        'bulk_job.kind',
        'bulk_job.created_by',
      ])
      .where('bulk_job_row.status', '=', 'done')
      .where('bulk_job_row.directory_at', 'is', null)
      .orderBy('bulk_job_row.job_id')
      .orderBy('bulk_job_row.row_number')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return false;
    const now = new Date(clock.now()).toISOString();
    await jobs.transaction().execute(async (trx) => {
      await recordGroupsSeen(trx as unknown as ConsoleDb, rows.map(directoryChangeOf), clock);
      for (const jobId of new Set(rows.map((row) => row.job_id)))
        await trx
          .updateTable('bulk_job_row')
          .set({ directory_at: now })
          .where('job_id', '=', jobId)
          .where(
            'row_number',
            'in',
            rows.filter((row) => row.job_id === jobId).map((row) => row.row_number),
          )
          .execute();
    });
    return rows.length === batchSize;
  }

  return {
    markDue() {
      due = true;
    },
    run() {
      running ??= catchUp()
        .catch((error: unknown) =>
          log(
            'error',
            { err: { name: (error as Error)?.name } },
            'could not update the directory from bulk jobs',
          ),
        )
        .finally(() => {
          running = undefined;
        });
    },
    async settled() {
      await running;
    },
  };
}
