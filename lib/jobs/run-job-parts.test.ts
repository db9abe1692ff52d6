/**
 * The parts a run of a job writes its rows and its end with (row-claims.ts, job-end.ts), on a real
 * console database (SQLite, or PostgreSQL in the PostgreSQL pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createRotateJob } from './drafts';
import { finishJobIfDone, pauseJob } from './job-end';
import { steerJob } from './job-transitions';
import { claimRowsAhead } from './row-claims';
import { jobsDb, migrateJobs } from './schema';
import { readTokenList } from './token-list';
import { createTokenVault } from './vault';

const clock = testClock();
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const owner = { id: 'op-1', email: 'ann@example.com' };

beforeAll(async () => {
  database = await openTestConsoleDatabase('jobs-run-parts');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  await migrateJobs(database);
});
afterAll(async () => {
  await database.dispose();
});

/** A started rotation job of `count` pasted tokens. */
async function rotation(count: number) {
  const reading = readTokenList(Array.from({ length: count }, (_, n) => `${n}`.padStart(64, 'a')).join('\n'));
  if (!reading.ok) throw new Error(reading.message);
  const vault = createTokenVault(Buffer.alloc(32, 1));
  const id = await createRotateJob(database.db, vault, {
    environment: 'Testing',
    source: 'pasted',
    owner,
    ...reading,
    // Tokens the console never saw (groups made outside it): sent on purpose.
    sendUnknown: true,
    clock,
  });
  await steerJob(database.db, id, 'start', {}, clock);
  return id;
}

const jobs = () => jobsDb(database.db);
const rowsOf = (id: string) =>
  jobs().selectFrom('bulk_job_row').selectAll().where('job_id', '=', id).orderBy('row_number').execute();
const statuses = async (id: string) => (await rowsOf(id)).map((row) => row.status);
const jobOf = (id: string) =>
  jobs().selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('claimRowsAhead', () => {
  it('marks rows sending a handful ahead of the workers, and returns the untaken ones, not a dead console’s', async () => {
    const id = await rotation(5);
    // Row 5 a dead console left sending: it stays so, whoever takes it next settles it.
    await jobs()
      .updateTable('bulk_job_row')
      .set({ status: 'sending' })
      .where('job_id', '=', id)
      .where('row_number', '=', 5)
      .execute();
    const claims = claimRowsAhead(jobs(), id, await rowsOf(id), 2);
    await claims.through(0);
    expect(await statuses(id)).toEqual(['sending', 'sending', 'pending', 'pending', 'sending']);
    await Promise.all([claims.through(1), claims.through(2), claims.through(4)]);
    expect(await statuses(id)).toEqual(['sending', 'sending', 'sending', 'sending', 'sending']);
    expect((await rowsOf(id)).map((row) => row.attempts)).toEqual([1, 1, 1, 1, 1]);
    // Rows 1 and 2 were taken; 3 to 5 were not.
    await claims.release(2);
    expect(await statuses(id)).toEqual(['sending', 'sending', 'pending', 'pending', 'sending']);
  });
});

describe('pauseJob and finishJobIfDone', () => {
  const log = () => {};

  it('finishes a job only once no row is left, erasing its pasted tokens and settling its audit entry', async () => {
    const id = await rotation(2);
    const entry = await recordAuditEvent(
      database.db,
      {
        action: 'rotate',
        operator: owner,
        outcome: 'started',
        requestId: id,
      },
      clock,
    );
    await jobs().updateTable('bulk_job').set({ audit_event_id: entry }).where('id', '=', id).execute();
    await jobs()
      .updateTable('bulk_job_row')
      .set({ status: 'done' })
      .where('job_id', '=', id)
      .where('row_number', '=', 1)
      .execute();
    await finishJobIfDone(database.db, await jobOf(id), log, clock);
    expect((await jobOf(id)).status).toBe('running');
    await jobs()
      .updateTable('bulk_job_row')
      .set({ status: 'failed' })
      .where('job_id', '=', id)
      .where('row_number', '=', 2)
      .execute();
    await finishJobIfDone(database.db, await jobOf(id), log, clock);
    expect(await jobOf(id)).toMatchObject({ status: 'finished', finished_at: expect.any(String) });
    expect((await rowsOf(id)).map((row) => row.input_token)).toEqual([null, null]);
    const settled = await database.db
      .selectFrom('audit_event')
      .select('outcome')
      .where('id', '=', entry)
      .executeTakeFirst();
    expect(settled?.outcome).toBe('failed_rows');
  });

  it('leaves a job a person paused or cancelled meanwhile as they left it', async () => {
    const cancelled = await rotation(1);
    await steerJob(database.db, cancelled, 'cancel', {}, clock);
    await jobs()
      .updateTable('bulk_job_row')
      .set({ status: 'done' })
      .where('job_id', '=', cancelled)
      .execute();
    await finishJobIfDone(database.db, await jobOf(cancelled), log, clock);
    expect((await jobOf(cancelled)).status).toBe('cancelled');
    await pauseJob(database.db, cancelled, 'api_key_refused', log, clock);
    expect(await jobOf(cancelled)).toMatchObject({ status: 'cancelled', paused_reason: null });

    const running = await rotation(1);
    await pauseJob(database.db, running, 'environment_not_configured', log, clock);
    expect(await jobOf(running)).toMatchObject({
      status: 'paused',
      paused_reason: 'environment_not_configured',
    });
  });
});
