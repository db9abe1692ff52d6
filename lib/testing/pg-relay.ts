/**
 * A real TCP relay to the test PostgreSQL that a test can silence (a half-open socket: no answer, no
 * reset) or reset (a host gone, a firewall), for the failures a database's network has.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
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

/** Until PostgreSQL runs `query` (a statement of this test's own text). */
async function untilRunning(query: string) {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    for (;;) {
      const { rows } = await admin.query<{ running: number }>(
        `select count(*)::int as running from pg_stat_activity where state = 'active' and query = $1`,
        [query],
      );
      if (rows[0]?.running) return;
    }
  } finally {
    await admin.end();
  }
}

/**
 * Runs a 3 s sleep through `execute`, resets the relay while PostgreSQL runs it, and returns how it
 * failed (undefined if it did not). An 'error' event nobody listens for would instead end the process.
 */
export async function resetWhileRunning(
  relay: Awaited<ReturnType<typeof pgRelay>>,
  execute: (query: string) => Promise<unknown>,
): Promise<unknown> {
  const query = `select pg_sleep(3) as reset_${randomBytes(4).toString('hex')}`;
  const outcome = execute(query).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  await untilRunning(query);
  relay.reset();
  return outcome;
}
