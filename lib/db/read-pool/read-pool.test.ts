import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { ConsoleError } from '@/lib/console-error';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import {
  createTestDatabaseLocation,
  type TestDatabaseLocation,
  testDialect,
} from '@/lib/testing/console-test-database';
import { CLOSED_AFTER_MS, ReadGate } from './read-gate';
import { ReadPool } from './read-pool';

let location: TestDatabaseLocation;
let database: ConsoleDatabase;

beforeAll(async () => {
  location = await createTestDatabaseLocation('read-pool');
  database = openConsoleDatabase(location.location);
  // A generated table of 200,000 rows, in one statement.
  await sql`create table generated (n integer primary key, label text not null)`.execute(database.db);
  await sql`insert into generated (n, label)
    with recursive counter(n) as (select 1 union all select n + 1 from counter where n < 200000)
    select n, 'row-' || n from counter`.execute(database.db);
});
afterAll(async () => {
  await database?.close();
  await location?.dispose();
});

/** A read that takes a while (a few hundred ms) on the generated table: each row against its next five. */
const slowRead = sql<{ total: number }>`select count(*) as total from generated a, generated b
  where b.n between a.n and a.n + 5 and b.label like '%9%'`;

/** How many turns the event loop made while `work` ran. */
async function turnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  await work;
  done = true;
  return turns;
}

describe.runIf(testDialect() === 'sqlite')('the read pool (SQLite)', () => {
  it('reads what the main connection committed, on another thread: the event loop keeps turning meanwhile', async () => {
    const read = slowRead.execute(database.reads);
    const turns = await turnsDuring(read);
    expect((await read).rows[0]?.total).toBeGreaterThan(0);
    // Run on the main connection, better-sqlite3 would hold the loop: not one turn until it ended.
    const onMain = await turnsDuring(slowRead.execute(database.db));
    expect(onMain).toBeLessThanOrEqual(1);
    expect(turns).toBeGreaterThan(10);
  });

  it('stops a read past its time limit with the clear error, and answers the next one', async () => {
    if (location.location.dialect !== 'sqlite') throw new Error('SQLite only');
    const pool = new ReadPool({ file: location.location.file, timeLimitMs: 100, size: 1 });
    try {
      // Each row against its next 50: seconds.
      const slower = slowRead.compile(database.reads).sql.replace('a.n + 5', 'a.n + 50');
      const error = await pool.run(slower, []).then(
        () => null,
        (reason: unknown) => reason as ConsoleError,
      );
      expect(error).toBeInstanceOf(ConsoleError);
      expect(error).toMatchObject({ code: 'read_too_long', status: 422 });
      expect(error?.message).toMatch(/took too long.*narrow it/);
      // On a new thread: the one that overran is ended.
      await expect(pool.run('select label from generated where n = ?', [7])).resolves.toEqual([
        { label: 'row-7' },
      ]);
    } finally {
      await pool.close();
    }
  });

  it('refuses anything but a read', async () => {
    await expect(sql`delete from generated`.execute(database.reads)).rejects.toThrow(/reads only/);
    // A write hidden behind a read's first word is refused by the read-only connection itself.
    await expect(
      sql`with doomed as (select 1) delete from generated where n in (select * from doomed)`.execute(
        database.reads,
      ),
    ).rejects.toThrow();
    await expect(database.reads.transaction().execute(async () => {})).rejects.toThrow(/no transactions/);
    expect(
      (await sql<{ total: number }>`select count(*) as total from generated`.execute(database.db)).rows,
    ).toEqual([{ total: 200_000 }]);
  });
});

describe.runIf(testDialect() === 'postgres')('reads on PostgreSQL', () => {
  it('plans without parallel workers: a count stopped at 1,001 spent 13 of its 17 ms starting two', async () => {
    const { rows } = await sql<{
      max_parallel_workers_per_gather: string;
    }>`show max_parallel_workers_per_gather`.execute(database.reads);
    expect(rows[0]?.max_parallel_workers_per_gather).toBe('0');
  });

  it('scans a table from its start, wherever an earlier scan stopped', async () => {
    // Synchronized scans begin past a quarter of shared_buffers' pages: rows of ~530 bytes, ~15 a
    // page, 8 per page of shared_buffers make a table twice that, in order of n.
    const { rows: settings } = await sql<{ pages: string }>`select setting as pages from pg_settings
      where name = 'shared_buffers'`.execute(database.db);
    const rows = Number(settings[0]?.pages) * 8;
    await sql`create table scanned as select n, repeat('x', 500) as filler
      from generate_series(1, ${rows}::int) as n`.execute(database.db);
    try {
      // A scan that stops two thirds of the way in, as a search stops at its limit.
      const stop = Math.floor((rows * 2) / 3);
      await expect(
        sql`select n from scanned where n = ${stop} limit 1`.execute(database.reads),
      ).resolves.toMatchObject({ rows: [{ n: stop }] });
      // The next scan reads from the start, not from where that one stopped.
      await expect(sql`select n from scanned limit 1`.execute(database.reads)).resolves.toMatchObject({
        rows: [{ n: 1 }],
      });
    } finally {
      await sql`drop table scanned`.execute(database.db);
    }
  }, 60_000);

  it('reads what was committed, and refuses a write', async () => {
    await expect(
      sql`select count(*)::int as total from generated`.execute(database.reads),
    ).resolves.toMatchObject({
      rows: [{ total: 200_000 }],
    });
    await expect(sql`delete from generated`.execute(database.reads)).rejects.toThrow(/read-only/);
  });
});

describe('the heavy reads give way to a sign-in (./read-gate.ts)', () => {
  it('starts no read while the gate is held: a slow ungated read asked after it is answered first', async () => {
    const clock = testClock();
    const readGate = new ReadGate(clock);
    const gated = openConsoleDatabase(location.location, { readGate });
    const quickRead = sql`select n from generated where n = 1`;
    try {
      // Its connection (a thread, on SQLite) is open before the gate closes.
      await quickRead.execute(gated.reads);
      const order: string[] = [];
      let endSignIn = () => {};
      const signIn = readGate.hold(() => new Promise<void>((resolve) => (endSignIn = resolve)));
      const held = quickRead.execute(gated.reads).then(() => order.push('gated'));
      await slowRead.execute(database.reads);
      order.push('ungated');
      // The gated read has not even reached its connection: nothing to wait for but the gate.
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual(['ungated']);
      endSignIn();
      await signIn;
      await clock.advance(CLOSED_AFTER_MS);
      await held;
      expect(order).toEqual(['ungated', 'gated']);
    } finally {
      await gated.close();
    }
  });
});
