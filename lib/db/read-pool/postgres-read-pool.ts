/**
 * PostgreSQL's read pool: a few connections of their own, every statement under the time limit, on
 * both ends of the wire.
 *
 * - The server stops a statement past `limitMs` (statement_timeout): the usual case, answered with
 *   the clear error by ./read-dialect.ts's timeLimitedDialect.
 * - The client stops waiting CLIENT_MARGIN_MS later (query_timeout), for an answer that cannot come:
 *   a connection whose network went silent (a half-open socket, a database host gone) would
 *   otherwise hold its read, then every read that drew it, until TCP gave up minutes later. Such a
 *   connection is closed rather than given back.
 * - A read waits at most `limitMs` for a connection (connectionTimeoutMillis).
 */

import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';

/** Past the server's own limit: the server's cancellation, with its clear code, comes first. */
const CLIENT_MARGIN_MS = 1_000;

/** What pg says when query_timeout passed with no answer. */
export const SILENT_CONNECTION_MESSAGE = 'Query read timeout';

const READ_POOL_SIZE = 4;

// random_page_cost as for SSDs and a cached table (1.1, not 4): at the default, a person's page walked
// the primary key backwards past every other person's entries rather than read the person's own index
// (lib/audit/plans.test.ts). No parallel workers: a read here is a page or a count stopped at 1,001,
// and starting two workers cost a range's count 13 of its 17 ms at a million entries (0.7 ms without).
const READ_SETTINGS =
  '-c default_transaction_read_only=on -c random_page_cost=1.1 -c max_parallel_workers_per_gather=0';

export function postgresReadPool(
  url: string,
  limitMs: number,
  clientMarginMs = CLIENT_MARGIN_MS,
): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: READ_POOL_SIZE,
    statement_timeout: limitMs,
    query_timeout: limitMs + clientMarginMs,
    connectionTimeoutMillis: limitMs,
    keepAlive: true,
    options: READ_SETTINGS,
  });
  // An idle connection lost must not crash the console; the next read opens another.
  pool.on('error', () => {});
  return {
    connect: async () => closedWhenSilent(await pool.connect()),
    end: () => pool.end(),
  };
}

/** `client`, given back to the pool as broken (so closed) once a query of its went unanswered. */
function closedWhenSilent(client: pg.PoolClient): PostgresPoolClient {
  let silent = false;
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query(sql: string | PostgresCursor<unknown>, parameters: ReadonlyArray<unknown> = []): unknown {
    // Kysely streams through a cursor only when its dialect is given one; the console's is not.
    if (typeof sql !== 'string') throw new Error('the console reads PostgreSQL without cursors');
    return client.query(sql, [...parameters]).catch((error: unknown) => {
      if (error instanceof Error && error.message === SILENT_CONNECTION_MESSAGE) silent = true;
      throw error;
    });
  }
  return {
    query,
    release: () => client.release(silent ? new Error('its connection stopped answering') : undefined),
  };
}
