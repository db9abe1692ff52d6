import {
  type ColumnDataType,
  type ColumnDefinitionBuilder,
  type Expression,
  type Kysely,
  type Migration,
  Migrator,
  sql,
} from 'kysely';
import type { ConsoleDatabase, ConsoleDialect } from './console-database';

/**
 * One module's migrations by name, written once for both dialects. Most of a migration is the
 * same Kysely schema builder on both (text, integer, primary keys, indexes, foreign keys): such a
 * module passes its migrations as they are. Where the dialects differ (an id the database numbers,
 * a text index), a function gets the dialect and answers the migrations, asking `dialect` or using
 * the helpers below.
 */
export type ConsoleMigrations =
  | Record<string, Migration>
  | ((dialect: ConsoleDialect) => Record<string, Migration>);

/**
 * Applies what is missing of one module's migrations, in order, each module with its own
 * bookkeeping table (`<name>_migration`). Idempotent; on PostgreSQL Kysely's migrator locks its
 * table, so instances starting together apply each migration once. Migrations see the schema as it
 * was when they were written, not as the current types say, hence `Kysely<unknown>`.
 */
export async function migrateModule(
  database: ConsoleDatabase,
  name: string,
  migrations: ConsoleMigrations,
): Promise<void> {
  const forDialect = typeof migrations === 'function' ? migrations(database.dialect) : migrations;
  // A feature registered before it has a table (lib/server/migrate.ts lists features, not tables)
  // leaves no bookkeeping tables behind.
  if (Object.keys(forDialect).length === 0) return;
  const migrator = new Migrator({
    db: database.db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => forDialect },
    migrationTableName: `${name}_migration`,
    migrationLockTableName: `${name}_migration_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `The ${name} migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Any number, the same in every console: the session-level lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 7_361_029_113;

/**
 * Runs `migrate` while no other console instance migrates the same PostgreSQL database (instances
 * started together would otherwise race better-auth's `create table`s). SQLite has one process.
 */
export async function whileMigrationLocked<T>(
  database: ConsoleDatabase,
  migrate: () => Promise<T>,
): Promise<T> {
  if (database.dialect !== 'postgres') return migrate();
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      return await migrate();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

/**
 * An integer primary key the database numbers: `integer primary key autoincrement` on SQLite
 * (ids never reused), `serial primary key` on PostgreSQL.
 *
 *   .addColumn('id', ...autoIncrementId(dialect))
 */
export function autoIncrementId(
  dialect: ConsoleDialect,
): [ColumnDataType, (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return dialect === 'postgres'
    ? ['serial', (column) => column.primaryKey()]
    : ['integer', (column) => column.primaryKey().autoIncrement()];
}

/**
 * Text that sorts and compares byte-wise, as SQLite's default (BINARY) does: PostgreSQL would
 * otherwise sort by the database's locale ("b" before "C"), and pages would differ between dialects.
 */
export function binaryText(dialect: ConsoleDialect): ColumnDataType | Expression<unknown> {
  return dialect === 'postgres' ? sql`text collate "C"` : 'text';
}
