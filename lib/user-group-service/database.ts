/**
 * One Kysely code path over two stores: SQLite (better-sqlite3, the default: a file path) and
 * PostgreSQL (a `postgres://` or `postgresql://` URL, via pg).
 *
 * SQLite runs in WAL mode with synchronous=NORMAL: a commit is in the WAL file (the OS page cache)
 * before the query returns, so a process crash or `kill -9` loses nothing that was answered; only a
 * power loss or OS crash can drop the last commits (never corrupt the file). FULL would fsync every
 * commit, a cost the interface's numbers cannot carry. busy_timeout lets several processes (a server
 * and the `keys` CLI) share the file.
 *
 * The SQLite file holds every group and API key digest: it is created 0600 (SQLite gives its -wal and
 * -shm files the database file's mode) in a directory created 0700, and a looser existing one is
 * tightened at open.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, type Generated, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { survivesLostConnections } from '../pg-lost-connections';
import type { Environment } from '../user-group-api/contract';

interface UserGroupTable {
  team_id: Generated<number>;
  environment: Environment;
  provided_id: string;
  name: string;
  /** JSON text, or null when none was given. */
  properties: string | null;
  mapping: string | null;
  token_digest: string;
  token_ciphertext: string;
  created_at: string;
  updated_at: string;
}

interface ApiKeyTable {
  id: string;
  key_digest: string;
  environment: Environment;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

interface ServiceMetaTable {
  name: string;
  value: string;
}

export interface DatabaseSchema {
  user_groups: UserGroupTable;
  api_keys: ApiKeyTable;
  service_meta: ServiceMetaTable;
}

export type DatabaseKind = 'sqlite' | 'postgres';

export interface ServiceDatabase {
  db: Kysely<DatabaseSchema>;
  kind: DatabaseKind;
  /** The SQLite file, or null for PostgreSQL and `:memory:`. */
  sqliteFile: string | null;
  /**
   * Keeps this SQL prepared for the life of the connection: the one statement cache (see
   * openSqlite). Does nothing on PostgreSQL, whose pool has no statement to keep.
   */
  keepPrepared(sql: string): void;
  /**
   * SQLite only, for a read-only SELECT: a runner that reads in one transaction with the other reads
   * of the same event-loop turn (see openSqlite); null on PostgreSQL or for a statement that writes.
   */
  batchedRead(sql: string): BatchedRead | null;
  close(): Promise<void>;
}

/** Resolves with the statement's rows, as objects keyed by column name. */
type BatchedRead = (parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>;

const isPostgresUrl = (database: string): boolean => /^postgres(ql)?:\/\//i.test(database);

export function openDatabase(database: string): ServiceDatabase {
  if (isPostgresUrl(database)) return openPostgres(database);
  return openSqlite(database);
}

function openPostgres(url: string): ServiceDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  survivesLostConnections(pool);
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    sqliteFile: null,
    keepPrepared: () => {},
    batchedRead: () => null,
    close: () => db.destroy(),
  };
}

function openSqlite(file: string): ServiceDatabase {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    createPrivateFile(file);
  }
  const sqlite = new SqliteDatabase(inMemory ? ':memory:' : file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Keep the WAL small after a burst (it is reused, not shrunk, otherwise).
  sqlite.pragma('journal_size_limit = 16777216');

  // The one statement cache. Kysely's SQLite driver prepares every statement anew, a quarter of a
  // request's CPU (README, "Speed-ups, measured"). One policy: what keepPrepared was given stays
  // prepared for the life of the connection and is never evicted; everything else is prepared per
  // call. Only the prepared queries (prepared-query.ts, built once at start) and the transaction
  // statements the driver runs for each group commit are kept, so it holds a fixed handful.
  // SQLite re-prepares a kept statement itself after a schema change.
  const kept = new Map<string, SqliteDatabase.Statement>();
  const keepPrepared = (sql: string) => {
    if (!kept.has(sql)) kept.set(sql, sqlite.prepare(sql));
  };
  for (const sql of ['begin', 'commit', 'rollback']) keepPrepared(sql);
  const driverDatabase = {
    close: () => {
      sqlite.close();
    },
    prepare: (sql: string) => kept.get(sql) ?? sqlite.prepare(sql),
  };
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: driverDatabase }) });
  return {
    db,
    kind: 'sqlite',
    sqliteFile: inMemory ? null : path.resolve(file),
    keepPrepared,
    batchedRead: createReadBatcher(sqlite, db),
    close: async () => {
      await db.destroy();
      // destroy() only closes a database Kysely has used; close it ourselves if it never was.
      if (sqlite.open) sqlite.close();
    },
  };
}

interface PendingRead {
  statement: SqliteDatabase.Statement;
  columns: readonly string[];
  parameters: readonly unknown[];
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group reads, as write-batcher.ts groups writes. Each SQLite read transaction pays fixed costs
 * outside the query (the database file's shared lock taken and released, its size checked: three
 * system calls, and the WAL's read mark), about as much as the indexed lookup itself on this
 * machine. Reads asked for in one event-loop turn (at 32 connections, the requests that arrived
 * together) run in one deferred transaction at the end of the turn, so they share those costs and
 * read one committed snapshot; a lone read runs on its own, as before. They run on the connection
 * directly, synchronously, between Kysely's queries; while a transaction of Kysely's is open (its
 * writes not committed) they go through Kysely instead, which waits for it as before.
 * Rows come back as arrays (better-sqlite3's raw mode) and are keyed here: the driver's own objects
 * cost more to build than the lookup.
 */
function createReadBatcher(sqlite: SqliteDatabase.Database, db: Kysely<DatabaseSchema>) {
  const begin = sqlite.prepare('begin');
  const commit = sqlite.prepare('commit');
  let queue: PendingRead[] = [];

  const rowsOf = (read: PendingRead): Record<string, unknown>[] =>
    (read.statement.all(read.parameters) as unknown[][]).map((values) => {
      const row: Record<string, unknown> = {};
      for (let index = 0; index < values.length; index++) row[read.columns[index] as string] = values[index];
      return row;
    });

  const runEach = (batch: readonly PendingRead[]) => {
    for (const read of batch) {
      try {
        read.resolve(rowsOf(read));
      } catch (error) {
        read.reject(error);
      }
    }
  };

  function flush() {
    const batch = queue;
    queue = [];
    if (sqlite.inTransaction) {
      // Kysely holds the connection in a transaction: wait for it, through Kysely's own queue.
      for (const read of batch) {
        db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(read.statement.source, [...read.parameters]),
        ).then((result) => read.resolve(result.rows), read.reject);
      }
      return;
    }
    if (batch.length === 1) {
      runEach(batch);
      return;
    }
    try {
      begin.run();
    } catch {
      // No shared transaction (the database is busy or closing): each read alone.
      runEach(batch);
      return;
    }
    try {
      runEach(batch);
    } finally {
      try {
        commit.run();
      } catch {
        // A read-only transaction has nothing to lose; end it whatever happened.
        if (sqlite.inTransaction) sqlite.exec('rollback');
      }
    }
  }

  return (sql: string): BatchedRead | null => {
    const statement = sqlite.prepare(sql);
    if (!statement.reader || !statement.readonly) return null;
    statement.raw(true);
    const columns = statement.columns().map((column) => column.name);
    return (parameters) =>
      new Promise((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ statement, columns, parameters, resolve, reject });
      });
  };
}

const PRIVATE_FILE_MODE = 0o600;

/** Creates the file 0600 if absent (the mode is set by the same open(2) that creates it). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const existing of [file, `${file}-wal`, `${file}-shm`]) restrictToOwner(existing);
}

/** A file left group- or world-readable (by an older version or a copy) becomes 0600. */
function restrictToOwner(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    // Absent (no -wal yet), or another user's file, which only its owner may change.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
