/**
 * A job's status changes by a person's action (start, pause, resume, cancel), each allowed only
 * from the statuses lib/jobs/contract.ts's `jobTransitions` lists, and what a job that can run no
 * more gives up.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { type JobAction, jobTransitions } from '@/lib/jobs/contract';
import { type BulkJobTable, jobsDb } from './schema';

/** Applies an action if the job's status allows it; answers the job after, or null when refused. */
export async function steerJob(
  db: ConsoleDb,
  id: string,
  action: JobAction,
  extra: Partial<Pick<BulkJobTable, 'audit_event_id'>> = {},
  clock: Clock,
): Promise<BulkJobTable | null> {
  const now = new Date(clock.now()).toISOString();
  const { to, from } = jobTransitions[action];
  const result = await jobsDb(db)
    .updateTable('bulk_job')
    .set({
      status: to,
      updated_at: now,
      paused_reason: null,
      ...(action === 'start' ? { started_at: now } : {}),
      ...(action === 'cancel' ? { finished_at: now } : {}),
      ...extra,
    })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  if (action === 'cancel') await eraseInputTokens(db, id);
  return (
    (await jobsDb(db).selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
  );
}

/** Tokens to rotate are not needed once a job can run no more: erased. */
export async function eraseInputTokens(db: ConsoleDb, id: string): Promise<void> {
  await jobsDb(db).updateTable('bulk_job_row').set({ input_token: null }).where('job_id', '=', id).execute();
}
