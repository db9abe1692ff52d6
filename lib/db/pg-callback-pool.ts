/**
 * A pg pool as Kysely takes it, its queries sent in pg's callback form. Kysely calls pg's promise
 * form, which let a query's rows outlive V8's young-generation collections: what the console reads
 * in bulk on its main connections (the sealer's batches, a prune's) was moved into the old generation
 * row by row, to wait there for a full collection (bench/README.md, round 14).
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

export function callbackFormPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => callbackFormClient(await pool.connect()),
    end: () => pool.end(),
  };
}

/**
 * Sends `sql` on `client` in pg's callback form, `answered` told of its end. A cursor (Kysely's
 * streaming, which it uses only when its dialect is given one) is refused before anything is sent:
 * the console reads PostgreSQL without cursors.
 */
export function sendByCallback(
  client: pg.PoolClient,
  sql: unknown,
  parameters: ReadonlyArray<unknown>,
  answered: (error: Error | undefined, result: unknown) => void,
): void {
  if (typeof sql !== 'string') throw new Error('the console reads PostgreSQL without cursors');
  client.query(sql, [...parameters], answered);
}

/** `client`'s queries in pg's callback form. */
function callbackFormClient(client: pg.PoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query(sql: unknown, parameters: ReadonlyArray<unknown> = []): unknown {
    return new Promise((resolve, reject) =>
      sendByCallback(client, sql, parameters, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}
