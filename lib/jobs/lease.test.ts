/**
 * Job leases on a real console database (SQLite, or PostgreSQL in the PostgreSQL pass), as two
 * console instances sharing it hold them: one holder at a time, renewed while held, free once run
 * out or released.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { readGetOrCreateCsv } from './csv';
import { createLeases } from './lease';
import { jobsDb, migrateJobs } from './schema';
import { createGetOrCreateJob, steerJob } from './store';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('jobs-lease');
  await migrateJobs(database);
});
afterAll(async () => {
  await database.dispose();
});

async function job({ start = true } = {}) {
  const reading = readGetOrCreateCsv('user_group_id\nlease-1');
  if (!reading.ok) throw new Error(reading.message);
  const owner = { id: 'op-1', email: 'ann@example.com' };
  const id = await createGetOrCreateJob(database.db, {
    environment: 'Testing',
    source: 'x.csv',
    owner,
    ...reading,
  });
  if (start) await steerJob(database.db, id, 'start');
  return id;
}

const holder = async (id: string) =>
  (
    await jobsDb(database.db)
      .selectFrom('bulk_job')
      .select('lease_owner')
      .where('id', '=', id)
      .executeTakeFirst()
  )?.lease_owner;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job leases', () => {
  it('lets one instance claim a running job, and not another while it holds it', async () => {
    const [a, b] = [createLeases(jobsDb(database.db), 60_000), createLeases(jobsDb(database.db), 60_000)];
    const id = await job();
    const draft = await job({ start: false });
    expect(await a.claimable()).toContain(id);
    expect(await a.claimable()).not.toContain(draft);
    expect(await a.claim(draft)).toBe(false);
    expect(await a.claim(id)).toBe(true);
    expect(await b.claimable()).not.toContain(id);
    expect(await b.claim(id)).toBe(false);
    // Its own lease is no obstacle to its holder.
    expect(await a.claim(id)).toBe(true);
    expect(await holder(id)).toBe(a.owner);
  });

  it('renews a held lease until released; one not renewed runs out and is taken over', async () => {
    const [a, b] = [createLeases(jobsDb(database.db), 300), createLeases(jobsDb(database.db), 300)];
    const held = await job();
    expect(await a.claim(held)).toBe(true);
    const lease = a.hold(held);
    await sleep(900);
    expect(await b.claim(held)).toBe(false);
    expect(lease.held()).toBe(true);
    await lease.release();
    expect(await holder(held)).toBeNull();
    expect(await b.claim(held)).toBe(true);

    // A console that died: claimed, never renewed.
    const abandoned = await job();
    expect(await a.claim(abandoned)).toBe(true);
    await sleep(400);
    expect(await b.claim(abandoned)).toBe(true);
    expect(await holder(abandoned)).toBe(b.owner);
  });

  it('tells a holder whose lease another instance took (it stalled past its lease) that it is lost', async () => {
    const [a, b] = [createLeases(jobsDb(database.db), 300), createLeases(jobsDb(database.db), 300)];
    const id = await job();
    expect(await a.claim(id)).toBe(true);
    const lease = a.hold(id);
    // What b's claim does once a's lease ran out, without waiting for a stall.
    await jobsDb(database.db)
      .updateTable('bulk_job')
      .set({ lease_owner: b.owner })
      .where('id', '=', id)
      .execute();
    await sleep(250);
    expect(lease.held()).toBe(false);
    // Releasing a lease taken over leaves the new holder's.
    await lease.release();
    expect(await holder(id)).toBe(b.owner);
  });
});
