/**
 * Leases on a real console database (SQLite, or PostgreSQL in the PostgreSQL pass), as two console
 * instances sharing it hold them: one holder at a time, renewed while held, free once run out or
 * released. The instances share a test clock, moved on instead of waited for. The rows are a table of
 * the test's own, as a job's row or the stream's row would carry the lease.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClock, testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createLease, type Lease } from './lease';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
let rows = 0;

beforeAll(async () => {
  database = await openTestConsoleDatabase('lease');
  await sql`create table work (id text primary key, status text not null, lease_owner text, lease_expires_at text)`.execute(
    database.db,
  );
});
afterAll(async () => {
  await database.dispose();
});

async function work({ running = true } = {}) {
  const id = `work-${++rows}`;
  await sql`insert into work (id, status) values (${id}, ${running ? 'running' : 'draft'})`.execute(
    database.db,
  );
  return id;
}

const holder = async (id: string) =>
  (
    await sql<{ lease_owner: string | null }>`select lease_owner from work where id = ${id}`.execute(
      database.db,
    )
  ).rows[0]?.lease_owner;

/** Two console instances on the one database and one clock. */
function instances(leaseMs: number, clock: TestClock = testClock()): [Lease, Lease] {
  const lease = () =>
    createLease(
      database.db,
      { table: 'work', key: 'id', only: { column: 'status', equals: 'running' } },
      leaseMs,
      clock,
    );
  return [lease(), lease()];
}

/** Time moves to the next renewal, which is written before time moves again (it sleeps once more). */
async function nextRenewal(clock: TestClock) {
  expect(await clock.next()).toBe(true);
  await clock.sleeping(1);
}

describe('leases', () => {
  it('lets one instance claim a row that qualifies, and not another while it holds it', async () => {
    const [a, b] = instances(60_000);
    const id = await work();
    const draft = await work({ running: false });
    expect(await a.claimable()).toContain(id);
    expect(await a.claimable()).not.toContain(draft);
    expect(await a.claim(draft)).toBe(false);
    expect(await a.claim(id)).toBe(true);
    expect(await b.claimable()).not.toContain(id);
    expect(await b.claim(id)).toBe(false);
    // Its own lease is no obstacle to its holder: claiming again renews it.
    expect(await a.claim(id)).toBe(true);
    expect(await holder(id)).toBe(a.owner);
    // Another's release leaves it; its holder's frees it.
    await b.release(id);
    expect(await holder(id)).toBe(a.owner);
    await a.release(id);
    expect(await holder(id)).toBeNull();
  });

  it('renews a held lease until released; one not renewed runs out and is taken over', async () => {
    const clock = testClock();
    const [a, b] = instances(300, clock);
    const held = await work();
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
    const abandoned = await work();
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
    const id = await work();
    expect(await a.claim(id)).toBe(true);
    const lease = a.hold(id);
    // What b's claim does once a's lease ran out, without waiting for a stall.
    await sql`update work set lease_owner = ${b.owner} where id = ${id}`.execute(database.db);
    await nextRenewal(clock);
    expect(lease.held()).toBe(false);
    // Releasing a lease taken over leaves the new holder's.
    await lease.release();
    expect(await holder(id)).toBe(b.owner);
  });
});
