/**
 * The conversion of pause reasons an older console stored as an error's message, on a real console
 * database (SQLite, or PostgreSQL in the PostgreSQL pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import type { Environment } from '@/lib/environments';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { readGetOrCreateCsv } from './csv';
import { createGetOrCreateJob } from './drafts';
import { migratePauseReasons } from './pause-reasons-migration';
import { jobsDb, migrateJobs } from './schema';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('jobs-pause-reasons');
  await migrateJobs(database);
});
afterAll(async () => {
  await database.dispose();
});

async function pausedJob(reason: string | null, environment: Environment = 'Testing') {
  const reading = readGetOrCreateCsv('user_group_id\npaused-1');
  if (!reading.ok) throw new Error(reading.message);
  const owner = { id: 'op-1', email: 'ann@example.com' };
  const id = await createGetOrCreateJob(database.db, {
    environment,
    source: 'x.csv',
    owner,
    ...reading,
    clock,
  });
  await jobsDb(database.db)
    .updateTable('bulk_job')
    .set({ status: 'paused', paused_reason: reason })
    .where('id', '=', id)
    .execute();
  return id;
}

const reasonOf = async (id: string) =>
  (
    await jobsDb(database.db)
      .selectFrom('bulk_job')
      .select('paused_reason')
      .where('id', '=', id)
      .executeTakeFirst()
  )?.paused_reason;

describe('migratePauseReasons', () => {
  it('turns the messages older consoles stored into the codes this one stores, once', async () => {
    const jobs = {
      refused: await pausedJob(
        'The User Group Service refused this environment’s API key: the job is paused. Fix the key and resume it.',
      ),
      noKey: await pausedJob(
        'The Customer environment is not configured: the console has no API key for it (USER_GROUP_API_KEY_CUSTOMER).',
        'Customer',
      ),
      notConfigured: await pausedJob('The Testing environment is not configured.'),
      other: await pausedJob('Invalid URL'),
      byPerson: await pausedJob(null),
      alreadyCode: await pausedJob('api_key_refused'),
    };
    await migratePauseReasons(database);
    await migratePauseReasons(database);
    expect({
      refused: await reasonOf(jobs.refused),
      noKey: await reasonOf(jobs.noKey),
      notConfigured: await reasonOf(jobs.notConfigured),
      other: await reasonOf(jobs.other),
      byPerson: await reasonOf(jobs.byPerson),
      alreadyCode: await reasonOf(jobs.alreadyCode),
    }).toEqual({
      refused: 'api_key_refused',
      noKey: 'environment_not_configured',
      notConfigured: 'environment_not_configured',
      other: 'environment_unusable',
      byPerson: null,
      alreadyCode: 'api_key_refused',
    });
  });
});
