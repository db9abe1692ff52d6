/**
 * The PostgreSQL read pool when the database does not answer: a connection gone silent (a half-open
 * socket: no answer, no reset), reset mid-read, or never made. Each read fails with the clear error
 * within its limits, the process keeps running, and the next read gets a connection that works.
 * Real PostgreSQL behind a real TCP relay that this test can silence or reset.
 */
import net from 'node:net';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, testDialect } from '@/lib/testing/console-test-database';
import { interruptWhileRunning, pgRelay, resetWhileRunning } from '@/lib/testing/pg-relay';
import { expectRowsDieYoung } from '@/lib/testing/promoted-by-reads';
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
    // Against pg's own client-side limit, which the pool used to set.
    await expectRowsDieYoung('read pool', 'pg with query_timeout');
  }, 60_000);
});
