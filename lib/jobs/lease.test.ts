/**
 * Job leases on a real console database (SQLite, or PostgreSQL in the PostgreSQL pass), as two
 * console instances sharing it hold them: one holder at a time, renewed while held, free once run
 * out or released. The instances share a test clock, moved on instead of waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClock, testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { readGetOrCreateCsv } from './csv';
import { createGetOrCreateJob } from './drafts';
import { steerJob } from './job-transitions';
import { createLeases, type Leases } from './lease';
import { jobsDb, migrateJobs } from './schema';

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

/** Two console instances on the one database and one clock. */
function instances(leaseMs: number, clock: TestClock = testClock()): [Leases, Leases] {
  return [
    createLeases(jobsDb(database.db), leaseMs, clock),
    createLeases(jobsDb(database.db), leaseMs, clock),
  ];
}

/** Time moves to the next renewal, which is written before time moves again (it sleeps once more). */
async function nextRenewal(clock: TestClock) {
  expect(await clock.next()).toBe(true);
  await clock.sleeping(1);
}

describe('job leases', () => {
  it('lets one instance claim a running job, and not another while it holds it', async () => {
    const [a, b] = instances(60_000);
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
    const clock = testClock();
    const [a, b] = instances(300, clock);
    const held = await job();
    expect(await a.claim(held)).toBe(true);
    const lease = a.hold(held);
    // Nine renewals, every 100 ms: three leases' time.
    for (let renewal = 0; renewal < 9; renewal++) await nextRenewal(clock);
    expect(clock.monotonic()).toBe(900);
    expect(await b.claim(held)).toBe(false);
    expect(lease.held()).toBe(true);
    await lease.release();
    expect(await holder(held)).toBeNull();
    expect(await b.claim(held)).toBe(true);

    // A console that died: claimed, never renewed.
    const abandoned = await job();
    expect(await a.claim(abandoned)).toBe(true);
    await clock.advance(300);
    expect(await b.claim(abandoned)).toBe(false);
    await clock.advance(1);
    expect(await b.claim(abandoned)).toBe(true);
    expect(await holder(abandoned)).toBe(b.owner);
  });

  it('tells a holder whose lease another instance took (it stalled past its lease) that it is lost', async () => {
    const clock = testClock();
    const [a, b] = instances(300, clock);
    const id = await job();
    expect(await a.claim(id)).toBe(true);
    const lease = a.hold(id);
    // What b's claim does once a's lease ran out, without waiting for a stall.
    await jobsDb(database.db)
      .updateTable('bulk_job')
      .set({ lease_owner: b.owner })
      .where('id', '=', id)
      .execute();
    await nextRenewal(clock);
    expect(lease.held()).toBe(false);
    // Releasing a lease taken over leaves the new holder's.
    await lease.release();
    expect(await holder(id)).toBe(b.owner);
  });
});
