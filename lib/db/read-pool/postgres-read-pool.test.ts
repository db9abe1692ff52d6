/**
 * A PostgreSQL connection whose network goes silent (a half-open socket: no answer, no reset) fails
 * its read with the clear error within the time limit, and is closed, not handed to the next read.
 * Real PostgreSQL behind a real TCP relay that this test can silence.
 */
import net from 'node:net';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, testDialect } from '@/lib/testing/console-test-database';
import { postgresReadPool } from './postgres-read-pool';
import { timeLimitedDialect } from './read-dialect';

/** A relay to PostgreSQL; silence() drops every connection's traffic from then on, both ways. */
async function silenceableRelay() {
  const target = new URL(POSTGRES_ADMIN_URL);
  const open: Array<{ client: net.Socket; upstream: net.Socket; closed: Promise<void> }> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream);
    upstream.pipe(client);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    open.push({ client, upstream, closed });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    connections: () => open.length,
    /** Resolves when the client side of every connection silenced so far has closed. */
    silence() {
      const silenced = open.map(({ client, upstream, closed }) => {
        // Whatever either side sends from now on is read and dropped: no answer, no reset.
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.resume();
        upstream.resume();
        return closed;
      });
      return Promise.all(silenced);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of open) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe.runIf(testDialect() === 'postgres')('the PostgreSQL read pool', () => {
  it('fails a read on a silent connection with the clear error, then reads on a new connection', async () => {
    const relay = await silenceableRelay();
    cleanup.push(relay.close);
    // The server's limit, 200 ms, and the client's 50 ms after it: real times, kept short.
    const reads = new Kysely({
      dialect: timeLimitedDialect(new PostgresDialect({ pool: postgresReadPool(relay.url, 200, 50) }), 200),
    });
    cleanup.push(() => reads.destroy());

    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(relay.connections()).toBe(1);

    const closed = relay.silence();
    const error = await sql`select 2 as two`.execute(reads).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'read_too_long', status: 422 });

    // The next read draws a new connection: the silent one was not given back to the pool's idle ones.
    await expect(sql`select 3 as three`.execute(reads)).resolves.toMatchObject({ rows: [{ three: 3 }] });
    expect(relay.connections()).toBe(2);
    await closed;
  });

  it('answers a statement the server stopped with the clear error, and keeps its connection', async () => {
    const relay = await silenceableRelay();
    cleanup.push(relay.close);
    const reads = new Kysely({
      dialect: timeLimitedDialect(new PostgresDialect({ pool: postgresReadPool(relay.url, 20) }), 20),
    });
    cleanup.push(() => reads.destroy());

    const error = await sql`select pg_sleep(2)`.execute(reads).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'read_too_long', status: 422 });
    await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(relay.connections()).toBe(1);
  });
});
