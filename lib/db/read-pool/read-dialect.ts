/**
 * Kysely over the read pool (./read-pool.ts): the same queries as on the main connection, run on a
 * worker thread. Reads only: no transactions, no streaming, and the pool refuses any statement
 * but select, with and explain.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { ReadGate } from './read-gate';
import type { ReadPool } from './read-pool';

const readOnly = () => new Error('the read pool answers reads only: no transactions');

class ReadPoolConnection implements DatabaseConnection {
  constructor(readonly pool: ReadPool) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.pool.run(compiled.sql, compiled.parameters)) as R[] };
  }

  // biome-ignore lint/correctness/useYield: a read is answered whole, never streamed.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the read pool answers whole results: page with a keyset instead of streaming');
  }
}

class ReadPoolDriver implements Driver {
  #pool: ReadPool | undefined;
  readonly #open: () => ReadPool;

  constructor(open: () => ReadPool) {
    this.#open = open;
  }

  /** Kysely calls it on the first query: no thread starts before a read is asked for. */
  async init(): Promise<void> {
    this.#pool = this.#open();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#pool) throw new Error('the read pool is not open');
    return new ReadPoolConnection(this.#pool);
  }

  async beginTransaction(): Promise<void> {
    throw readOnly();
  }

  async commitTransaction(): Promise<void> {
    throw readOnly();
  }

  async rollbackTransaction(): Promise<void> {
    throw readOnly();
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#pool?.close();
  }
}

export class ReadPoolDialect implements Dialect {
  constructor(readonly open: () => ReadPool) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new ReadPoolDriver(this.open);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * `inner`, every failure of its connections and queries put as `translate` says: PostgreSQL's read
 * pool (./postgres-read-pool.ts's postgresReadFailure) turns its database's errors into the
 * console's answers there.
 */
export function failuresTranslated(inner: Dialect, translate: (error: unknown) => unknown): Dialect {
  return withDriver(inner, (driver) => {
    // Kysely hands back the connection it acquired (the wrapper); the inner driver releases its own.
    const inners = new WeakMap<DatabaseConnection, DatabaseConnection>();
    return {
      init: () => driver.init(),
      destroy: () => driver.destroy(),
      releaseConnection: (connection) => driver.releaseConnection(inners.get(connection) ?? connection),
      beginTransaction: () => Promise.reject(readOnly()),
      commitTransaction: () => Promise.reject(readOnly()),
      rollbackTransaction: () => Promise.reject(readOnly()),
      acquireConnection: async () => {
        const connection = await driver
          .acquireConnection()
          .catch((error: unknown) => Promise.reject(translate(error)));
        const wrapper: DatabaseConnection = {
          executeQuery: <R>(compiled: CompiledQuery) =>
            connection.executeQuery<R>(compiled).catch((error: unknown) => Promise.reject(translate(error))),
          streamQuery: <R>(compiled: CompiledQuery, chunkSize?: number) =>
            connection.streamQuery<R>(compiled, chunkSize),
        };
        inners.set(wrapper, connection);
        return wrapper;
      },
    };
  });
}

/** Every read waits for its turn at the gate (./read-gate.ts) before it takes a connection. */
export function gatedDialect(inner: Dialect, gate: ReadGate): Dialect {
  return withDriver(inner, (driver) => ({
    init: () => driver.init(),
    destroy: () => driver.destroy(),
    releaseConnection: (connection) => driver.releaseConnection(connection),
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    acquireConnection: async () => {
      await gate.turn();
      return driver.acquireConnection();
    },
  }));
}

/** `inner` with its driver wrapped: its adapter, query compiler and introspector as they are. */
function withDriver(inner: Dialect, wrap: (driver: Driver) => Driver): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => wrap(inner.createDriver()),
  };
}
