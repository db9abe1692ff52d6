/**
 * One drafted job run by a fresh job runner to its end, as the console runs it: timed from its
 * start (the upload's reading and storing is the person's preview), its status read lightly (the
 * progress page's counts would compete for the database). Shared by the bulk and pace benches.
 */
import { randomBytes } from 'node:crypto';
import { realClock } from '../lib/clock';
import type { ConsoleDatabase } from '../lib/db/console-database';
import { steerJob } from '../lib/jobs/job-transitions';
import { createJobRunner } from '../lib/jobs/runner';
import { jobsDb } from '../lib/jobs/schema';
import { jobProgress } from '../lib/jobs/store';
import { createTokenVault } from '../lib/jobs/vault';
import type { UserGroupApi } from '../lib/user-group-api/client';

export async function runToEnd(
  database: ConsoleDatabase,
  api: UserGroupApi,
  id: string,
  { pace, concurrency, pollMs }: { pace: number | null; concurrency: number; pollMs: number },
): Promise<number> {
  const runner = createJobRunner({
    db: database.db,
    vault: createTokenVault(randomBytes(32)),
    api: () => api,
    pace: () => pace,
    concurrency,
    log: () => {},
    pollMs: 20,
    clock: realClock,
  });
  const started = performance.now();
  await steerJob(database.db, id, 'start', {}, realClock);
  runner.start();
  const jobs = jobsDb(database.db);
  for (;;) {
    const job = await jobs.selectFrom('bulk_job').select('status').where('id', '=', id).executeTakeFirst();
    if (job?.status === 'finished') break;
    if (job?.status !== 'running') throw new Error(`bench: the job is ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  const progress = await jobProgress(database.db, id, new Date(realClock.now()));
  if (progress?.counts.failed) throw new Error(`bench: ${progress.counts.failed} rows failed`);
  return seconds;
}
