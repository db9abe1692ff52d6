/**
 * A real TCP relay to the test PostgreSQL that a test can silence (a half-open socket: no answer, no
 * reset) or reset (a host gone, a firewall), for the failures a database's network has.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './console-test-database';

/** A relay to PostgreSQL; silence() drops every connection's traffic from then on, both ways. */
export async function pgRelay() {
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
    /** Resets every connection open so far, as a host gone or a firewall does. */
    reset() {
      for (const { client, upstream } of open) {
        client.resetAndDestroy();
        upstream.destroy();
      }
    },
    /** Drops every connection and closes the port, as a database gone does (restore() opens it again). */
    cut: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of open.splice(0)) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
    /** Listens again on the same port after cut(): the database is back. */
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

/**
 * Runs a 3 s sleep through `execute` and, once PostgreSQL runs it, `interrupt` (given the backend's
 * pid); returns how the sleep failed (undefined if it did not). Gives up, with an error, when the sleep
 * ends before PostgreSQL is seen running it, or after 5,000 looks.
 */
export async function interruptWhileRunning(
  execute: (query: string) => Promise<unknown>,
  interrupt: (pid: number) => void | Promise<void>,
): Promise<unknown> {
  const query = `select pg_sleep(3) as interrupted_${randomBytes(4).toString('hex')}`;
  let settled = false;
  const outcome = execute(query).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  void outcome.finally(() => (settled = true));
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    for (let look = 0; look < 5_000 && !settled; look += 1) {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where state = 'active' and query = $1`,
        [query],
      );
      const pid = rows[0]?.pid;
      if (pid !== undefined) {
        await interrupt(pid);
        return outcome;
      }
    }
    throw new Error(`PostgreSQL was not seen running ${query}: it ended first, or never started`);
  } finally {
    await admin.end();
  }
}

/**
 * The same, reset by the relay: a host gone, a firewall. An 'error' event nobody listens for would
 * end the process.
 */
export const resetWhileRunning = (
  relay: Awaited<ReturnType<typeof pgRelay>>,
  execute: (query: string) => Promise<unknown>,
) => interruptWhileRunning(execute, () => relay.reset());

/**
 * A database opened behind a relay, its connection reset mid-query: how that query failed, what the
 * next query answered, and how many connections the relay saw. The database is closed after.
 */
export async function afterResetMidQuery<Tables>(
  open: (url: string) => { db: Kysely<Tables>; close(): Promise<void> },
): Promise<{ failure: unknown; next: unknown; connections: number }> {
  const relay = await pgRelay();
  const database = open(relay.url);
  try {
    const failure = await resetWhileRunning(relay, (query) => sql.raw(query).execute(database.db));
    const { rows: next } = await sql`select 1 as one`.execute(database.db);
    return { failure, next, connections: relay.connections() };
  } finally {
    await database.close();
    await relay.cut();
  }
}
