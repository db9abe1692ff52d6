/**
 * PostgreSQL's read pool: a few connections of their own, every read bounded in time on both ends of
 * the wire.
 *
 * - The server stops a statement past `limitMs` (statement_timeout): the usual case, answered
 *   422 read_too_long (postgresReadFailure, which ./read-dialect.ts's failuresTranslated applies).
 * - The client stops waiting `clientMarginMs` later (its own timer, not pg's query_timeout: see
 *   closedWhenUnanswered), for an answer that cannot come:
 *   a connection whose network went silent (a half-open socket, a database host gone) would
 *   otherwise hold its read, then every read that drew it, until TCP gave up minutes later. Such a
 *   connection is closed rather than given back, and the read answers 503 database_unavailable.
 * - A read waits at most `connectWaitMs` for a connection (pg-pool counts the queue and the connecting).
 * - A connection reset or closed mid-read fails that read, never the process: pg emits it as an
 *   'error' event, which pg-pool listens for only while the connection is idle.
 */

import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import { ConsoleError } from '@/lib/console-error';
import { sendByCallback } from '@/lib/db/pg-callback-pool';
import { poolConfig } from '@/lib/db/pg-pool-config';
import { survivesLostConnections } from '@/lib/pg-lost-connections';
import { readTooLong } from './read-pool';

/** What a read says when the client's wait passed with no answer (pg's words for its query_timeout). */
const SILENT_CONNECTION_MESSAGE = 'Query read timeout';

const READ_POOL_SIZE = 4;

/**
 * No JIT compilation, on every connection of the console's: its statements are pages, counts stopped
 * early and batches, which JIT never pays back. The planner compiles a statement whose estimated cost
 * passes jit_above_cost, and a size alone can take an estimate past it: at a million groups the rows
 * of a page's 25 ids (a join estimated at 89,000 rows an id, for one) were compiled on every search
 * and list, 13–15 ms of a 20 ms answer, where at 100,000 they were not (bench/README.md, round 13).
 */
export const NO_JIT = '-c jit=off';

// random_page_cost as for SSDs and a cached table (1.1, not 4): at the default, a person's page walked
// the primary key backwards past every other person's entries rather than read the person's own index
// (lib/audit/plans.test.ts). No parallel workers: a read here is a page or a count stopped at 1,001,
// and starting two workers cost a range's count 13 of its 17 ms at a million entries (0.7 ms without).
// No synchronized scans: on a table past a quarter of shared_buffers, a scan starts where another
// one last was, and a search stopped at its 1,001st match (lib/directory/matching.ts) then read from
// there round to the oldest groups it wanted: 140 ms after a scan that stopped at 60% of a million
// groups, 1 ms from the start, and p95 410 ms for the all-old search (bench/README.md, round 19).
const READ_SETTINGS = `-c default_transaction_read_only=on -c random_page_cost=1.1 -c max_parallel_workers_per_gather=0 -c synchronize_seqscans=off ${NO_JIT}`;

interface ReadPoolLimits {
  /** The server's limit on one statement. */
  limitMs: number;
  /** How much longer the client waits for an answer: the server's cancellation comes first. */
  clientMarginMs?: number;
  /** How long a read waits for a connection. */
  connectWaitMs?: number;
}

export function postgresReadPool(
  url: string,
  { limitMs, clientMarginMs = 1_000, connectWaitMs = 2 * limitMs }: ReadPoolLimits,
): PostgresPool {
  const pool = new pg.Pool(
    poolConfig(url, {
      max: READ_POOL_SIZE,
      statement_timeout: limitMs,
      // The client's wait is closedWhenUnanswered's, never pg's (see Waiting), whatever the URL says.
      query_timeout: undefined,
      connectionTimeoutMillis: connectWaitMs,
      // TCP's own probes from 10 s idle (then the system's interval and count): a peer gone without a
      // word is found between reads too, in minutes rather than hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      options: READ_SETTINGS,
    }),
  );
  survivesLostConnections(pool);
  return {
    connect: async () => closedWhenUnanswered(await pool.connect(), limitMs + clientMarginMs),
    end: () => pool.end(),
  };
}

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * What a failed read is answered: one the server cancelled at `limitMs` fails with readTooLong(), as
 * a read past the SQLite pool's limit does (422); one the database did not answer with
 * databaseNotAnswering()'s 503; anything else (a query's own error, a bug) as it is.
 */
export function postgresReadFailure(error: unknown, limitMs: number): unknown {
  if ((error as { code?: unknown } | null)?.code === QUERY_CANCELED) return readTooLong(limitMs);
  return databaseNotAnswering(error) ?? error;
}

/** pg's and pg-pool's own words for a connection that failed, was lost, or was not had in time. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error/,
  /^Client was closed/,
];
const NO_CONNECTION_IN_TIME = 'timeout exceeded when trying to connect';

/**
 * SQLSTATEs of a database that cannot serve now: connection exceptions (class 08), insufficient
 * resources (53, too many connections among them), and a server shut down or starting (57P01–57P03).
 */
const UNAVAILABLE_STATE = /^(08|53|57P0[123])/;

/**
 * The read failed for want of an answering database, not for what it asked: 503, with the cause in
 * the log and for admins. Anything else (a query's own error, a bug) is left as it is: 500 internal.
 */
function databaseNotAnswering(error: unknown): ConsoleError | undefined {
  const cause = unavailability(error);
  if (!cause) return undefined;
  return new ConsoleError(
    'database_unavailable',
    "The console's database did not answer, so this could not be read. Try again in a moment.",
    {},
    `PostgreSQL did not answer a read (${cause}): check the database and the network to it (DATABASE_URL).`,
  );
}

function unavailability(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (error instanceof pg.DatabaseError) {
    return typeof code === 'string' && UNAVAILABLE_STATE.test(code) ? `SQLSTATE ${code}` : undefined;
  }
  if (error.message === SILENT_CONNECTION_MESSAGE) return 'no answer within its time limit';
  if (error.message === NO_CONNECTION_IN_TIME) {
    return 'no connection within the wait: the database is not answering, or every read connection was busy';
  }
  // A socket's own failure (ECONNRESET, ECONNREFUSED, ENOTFOUND…) carries the system call.
  if (typeof syscall === 'string') return String(code ?? syscall);
  if (CONNECTION_MESSAGES.some((message) => message.test(error.message))) return 'connection lost';
  return undefined;
}

/**
 * `client`, given back to the pool as broken (so closed) once a query of its found the database not
 * answering: silent past `answerWaitMs`, lost, or its server process shut down, which pg may not have
 * noticed yet.
 */
function closedWhenUnanswered(client: pg.PoolClient, answerWaitMs: number): PostgresPoolClient {
  let broken = false;
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query(sql: string | PostgresCursor<unknown>, parameters: ReadonlyArray<unknown> = []): unknown {
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        fail: (error) => {
          broken = true;
          reject(error);
        },
      };
      const silence = setTimeout(unanswered, answerWaitMs, waiting);
      const answered = () => {
        clearTimeout(silence);
        const waited = waiting.fail !== null;
        waiting.fail = null;
        return waited;
      };
      try {
        // pg's callback form: see Waiting.
        sendByCallback(client, sql, parameters, (error, result) => {
          if (!answered()) return;
          if (!error) return resolve(result);
          if (unavailability(error)) broken = true;
          reject(error);
        });
      } catch (error) {
        // Refused before it was sent: no answer to wait for.
        answered();
        throw error;
      }
    });
  }
  return {
    query,
    release: () => client.release(broken ? new Error('the database did not answer on it') : undefined),
  };
}

/**
 * A read waiting for its answer. Its timer holds this alone, emptied when the answer comes. With pg's
 * query_timeout (a timer whose callback reaches the query, and so its rows) or pg's promise form, a
 * read's rows outlived V8's young-generation collections: an export of 86,000 rows moved about 40 MB
 * into the old generation, where this moves next to nothing (bench/README.md, round 14).
 */
interface Waiting {
  fail: ((error: Error) => void) | null;
}

function unanswered(waiting: Waiting): void {
  const { fail } = waiting;
  waiting.fail = null;
  fail?.(new Error(SILENT_CONNECTION_MESSAGE));
}
