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

/** `client`'s queries in pg's callback form; the console reads PostgreSQL without cursors. */
function callbackFormClient(client: pg.PoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query(sql: unknown, parameters: ReadonlyArray<unknown> = []): unknown {
    if (typeof sql !== 'string') throw new Error('the console reads PostgreSQL without cursors');
    return new Promise((resolve, reject) =>
      client.query(sql, [...parameters], (error: Error | undefined, result: unknown) =>
        error ? reject(error) : resolve(result),
      ),
    );
  }
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}
