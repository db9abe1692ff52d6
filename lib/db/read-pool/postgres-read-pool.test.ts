/**
 * The PostgreSQL read pool when the database does not answer: a connection gone silent (a half-open
 * socket: no answer, no reset), reset mid-read, or never made. Each read fails with the clear error
 * within its limits, the process keeps running, and the next read gets a connection that works.
 * Real PostgreSQL behind a real TCP relay that this test can silence or reset.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, testDialect } from '@/lib/testing/console-test-database';
import { interruptWhileRunning, pgRelay, resetWhileRunning } from '@/lib/testing/pg-relay';
import { postgresReadFailure, postgresReadPool } from './postgres-read-pool';
import { failuresTranslated } from './read-dialect';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const readsThrough = (url: string, limits: Parameters<typeof postgresReadPool>[1]) => {
  const reads = new Kysely({
    dialect: failuresTranslated(new PostgresDialect({ pool: postgresReadPool(url, limits) }), (error) =>
      postgresReadFailure(error, limits.limitMs),
    ),
  });
  cleanup.push(() => reads.destroy());
  return reads;
};

const notAnswering = { code: 'database_unavailable', status: 503 };

describe.runIf(testDialect() === 'postgres')('the PostgreSQL read pool', () => {
  it('fails a read on a silent connection (503), closes it, and reads on a new connection', async () => {
    const relay = await pgRelay();
    cleanup.push(relay.cut);
    // The server's limit, 200 ms, and the client's 50 ms after it: real times, kept short.
    const reads = readsThrough(relay.url, { limitMs: 200, clientMarginMs: 50, connectWaitMs: 2_000 });

    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(relay.connections()).toBe(1);

    const closed = relay.silence();
    const error = await sql`select 2 as two`.execute(reads).catch((reason: unknown) => reason);
    expect(error).toMatchObject(notAnswering);
    expect(error).toMatchObject({ adminMessage: expect.stringMatching(/no answer within its time limit/) });

    // The next read draws a new connection: the silent one was not given back to the pool's idle ones.
    await expect(sql`select 3 as three`.execute(reads)).resolves.toMatchObject({ rows: [{ three: 3 }] });
    expect(relay.connections()).toBe(2);
    await closed;
  });

  it('fails a read whose connection is reset (503), and the process keeps running', async () => {
    const relay = await pgRelay();
    cleanup.push(relay.cut);
    const reads = readsThrough(relay.url, { limitMs: 5_000, connectWaitMs: 2_000 });

    expect(await resetWhileRunning(relay, (query) => sql.raw(query).execute(reads))).toMatchObject(
      notAnswering,
    );
    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(relay.connections()).toBe(2);
  });

  it('fails a read whose server process was shut down (503: a restart), and reads on', async () => {
    const relay = await pgRelay();
    cleanup.push(relay.cut);
    const reads = readsThrough(relay.url, { limitMs: 5_000, connectWaitMs: 2_000 });

    const failure = await interruptWhileRunning(
      (query) => sql.raw(query).execute(reads),
      async (pid) => {
        await sql`select pg_terminate_backend(${pid})`.execute(reads);
      },
    );
    expect(failure).toMatchObject({ ...notAnswering, adminMessage: expect.stringMatching(/SQLSTATE 57P01/) });
    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it("leaves a failure that is the read's own (a parameter it cannot send) as it is: not 503", async () => {
    const relay = await pgRelay();
    cleanup.push(relay.cut);
    const reads = readsThrough(relay.url, { limitMs: 5_000, connectWaitMs: 2_000 });
    const circular: Record<string, unknown> = {};
    circular.self = circular;

    const failure = await sql`select ${circular}::jsonb as value`
      .execute(reads)
      .catch((reason: unknown) => reason);
    expect(failure).toBeInstanceOf(TypeError);
    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('fails a read that cannot get a connection within its wait (503)', async () => {
    // Takes the connection, never says a word.
    const mute = net.createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => mute.close(() => resolve())));
    mute.unref();
    const url = new URL(POSTGRES_ADMIN_URL);
    url.host = `127.0.0.1:${(mute.address() as net.AddressInfo).port}`;
    const reads = readsThrough(url.toString(), { limitMs: 5_000, connectWaitMs: 100 });

    await expect(sql`select 1 as one`.execute(reads)).rejects.toMatchObject(notAnswering);
  });

  it('answers a statement the server stopped with 422 read_too_long, and keeps its connection', async () => {
    const relay = await pgRelay();
    cleanup.push(relay.cut);
    const reads = readsThrough(relay.url, { limitMs: 20, connectWaitMs: 2_000 });

    const error = await sql`select pg_sleep(2)`.execute(reads).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'read_too_long', status: 422 });
    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(relay.connections()).toBe(1);
  });

  it("lets a read's rows die young: the wait for its answer does not carry them into the old generation", async () => {
    // Each in a process of its own: a dead object one of them promoted keeps the other's rows alive too.
    const ours = await promotedByReads('ours');
    const control = await promotedByReads('control');
    // The control (pg's own client-side limit, which the read pool used to set) promotes most of what it
    // reads; the pool, next to nothing.
    expect(control).toBeGreaterThan(4 * 1024 * 1024);
    expect(ours).toBeLessThan(control / 4);
  }, 60_000);
});

/**
 * Bytes the young-generation collections moved to the old generation in a child process while it
 * read 40,000 rows of a dozen short strings a batch of 1,000 at a time, three times over (what an
 * export does), through the read pool (`ours`) or through Kysely on a pg pool with query_timeout.
 */
async function promotedByReads(through: 'ours' | 'control'): Promise<number> {
  const script = `
    import v8 from 'node:v8';
    import { Kysely, PostgresDialect, sql } from 'kysely';
    import pg from 'pg';
    const { postgresReadPool } = await import('./lib/db/read-pool/postgres-read-pool.ts');
    const url = ${JSON.stringify(POSTGRES_ADMIN_URL)};
    const pool = ${JSON.stringify(through)} === 'ours'
      ? postgresReadPool(url, { limitMs: 5000 })
      : new pg.Pool({ connectionString: url, max: 4, query_timeout: 6000 });
    const reads = new Kysely({ dialect: new PostgresDialect({ pool }) });
    const batches = async () => {
      for (let from = 1; from <= 40000; from += 1000) {
        await sql\`select g as id, md5(g::text) as a, md5((g + 1)::text) as b, repeat('x', 40) as c,
          g::text as d, now()::text as e, md5((g + 2)::text) as f, 'production' as g
          from generate_series(\${from}::int, \${from + 999}::int) g\`.execute(reads);
      }
    };
    await batches();
    const profiler = new v8.GCProfiler();
    profiler.start();
    for (let round = 0; round < 3; round++) await batches();
    const oldSpace = (side) => side.heapSpaceStatistics.find((space) => space.spaceName === 'old_space').spaceUsedSize;
    const promoted = profiler.stop().statistics
      .filter((collection) => collection.gcType === 'Scavenge')
      .reduce((sum, collection) => sum + oldSpace(collection.afterGC) - oldSpace(collection.beforeGC), 0);
    await reads.destroy();
    process.stdout.write(String(promoted));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  return Number(output);
}
