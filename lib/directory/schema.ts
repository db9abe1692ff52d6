/**
 * The directory's table and migrations, on the console database. The interface has no list call,
 * so the console keeps its own record, per environment, of every group it has got, created,
 * rotated or deleted. Tokens are never stored, only their fingerprints.
 */
import { type Kysely, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb, ConsoleTables } from '@/lib/db/console-database';
import { binaryText, type ConsoleMigrations, migrateModule } from '@/lib/db/migrate';
import { postgresShortIndex, sqliteShortIndex } from './short-grams';

/** The directory of user groups, one row per environment and id: its table, declared with it. */
export interface DirectoryEntryTable {
  environment: string;
  user_group_id: string;
  name: string | null;
  team_id: number | null;
  /** JSON, as the service last returned them. */
  properties: string | null;
  /** JSON, as this console last sent it (the service never returns a mapping). */
  mapping: string | null;
  token_fingerprint: string | null;
  /** null when the group was created elsewhere, before this console knew it. */
  created_at: string | null;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
  deleted_at: string | null;
  deleted_by: string | null;
}

// A type, not an interface: Kysely's withTables asks for an index signature.
export type DirectoryTables = {
  directory_entry: DirectoryEntryTable;
};

/** The console database seen with the directory's table (as lib/jobs/schema.ts's jobsDb). */
export function directoryDb(db: ConsoleDb): Kysely<ConsoleTables & DirectoryTables> {
  return db.withTables<DirectoryTables>();
}

/** Exported for the tests that undo and redo the last one (a backfill of rows already there). */
export const directoryMigrations: ConsoleMigrations = (dialect) => ({
  '2026-11-23-001-directory': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('directory_entry')
        .addColumn('environment', 'text', (column) => column.notNull())
        // Sorted and paged by: byte order on both dialects, as SQLite's.
        .addColumn('user_group_id', binaryText(dialect), (column) => column.notNull())
        .addColumn('name', binaryText(dialect))
        .addColumn('team_id', 'integer')
        .addColumn('properties', 'text')
        .addColumn('mapping', 'text')
        .addColumn('token_fingerprint', 'text')
        .addColumn('created_at', 'text')
        .addColumn('created_by', 'text')
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addColumn('updated_by', 'text')
        .addColumn('deleted_at', 'text')
        .addColumn('deleted_by', 'text')
        .addPrimaryKeyConstraint('directory_entry_pk', ['environment', 'user_group_id'])
        .execute();
      // Listing and sorting the groups that exist: partial indexes that hold every sort key, so a
      // page of 100,000 groups is read from the index alone.
      // PostgreSQL keeps NULL last unless told; the pages sort it first, as SQLite does.
      const nullsFirst = dialect === 'postgres' ? sql` nulls first` : sql``;
      for (const column of ['updated_at', 'name', 'created_at', 'user_group_id']) {
        await sql`create index ${sql.id(`directory_entry_live_${column}`)} on directory_entry (environment, ${sql.id(column)}${nullsFirst}, user_group_id) where deleted_at is null`.execute(
          db,
        );
      }
      // Search by part of an id or a name: a trigram index answers substrings (3+ characters)
      // without reading every row. PostgreSQL: pg_trgm's GIN indexes, which ILIKE uses.
      if (dialect === 'postgres') {
        await createTrigramIndexes(db);
        return;
      }
      // SQLite: an FTS5 trigram table, kept in step with the table by triggers.
      await sql`create virtual table directory_search using fts5(user_group_id, name, content='directory_entry', tokenize='trigram')`.execute(
        db,
      );
      await sql`create trigger directory_search_insert after insert on directory_entry begin
        insert into directory_search (rowid, user_group_id, name) values (new.rowid, new.user_group_id, new.name);
      end`.execute(db);
      await sql`create trigger directory_search_delete after delete on directory_entry begin
        insert into directory_search (directory_search, rowid, user_group_id, name) values ('delete', old.rowid, old.user_group_id, old.name);
      end`.execute(db);
      await sql`create trigger directory_search_update after update of user_group_id, name on directory_entry begin
        insert into directory_search (directory_search, rowid, user_group_id, name) values ('delete', old.rowid, old.user_group_id, old.name);
        insert into directory_search (rowid, user_group_id, name) values (new.rowid, new.user_group_id, new.name);
      end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sql`drop table directory_search`.execute(db);
      await sql`drop table directory_entry`.execute(db);
    },
  },
  '2026-11-23-002-directory-id-index-covers-name': {
    // A short search ("ac") scans the live groups' ids and names: an id index that also holds the
    // name answers it from the index alone, without reading each row.
    async up(db: Kysely<unknown>) {
      await sql`drop index directory_entry_live_user_group_id`.execute(db);
      await sql`create index directory_entry_live_user_group_id on directory_entry (environment, user_group_id, name) where deleted_at is null`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index directory_entry_live_user_group_id`.execute(db);
      await sql`create index directory_entry_live_user_group_id on directory_entry (environment, user_group_id, user_group_id) where deleted_at is null`.execute(
        db,
      );
    },
  },
  '2026-11-24-001-directory-token-fingerprint': {
    // "Whose token is this?" looks a pasted token up by its fingerprint.
    async up(db: Kysely<unknown>) {
      await sql`create index directory_entry_token_fingerprint on directory_entry (token_fingerprint)`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index directory_entry_token_fingerprint`.execute(db);
    },
  },
  '2026-11-27-001-directory-scan-index': {
    // A search of one or two characters, which no trigram holds, reads ids and names from this
    // index alone (lib/directory/search.ts, in chunks on SQLite): the partial id index above makes
    // SQLite read each row to check deleted_at, five times slower at a million groups.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('directory_entry_scan')
        .on('directory_entry')
        .columns(['environment', 'deleted_at', 'user_group_id', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index directory_entry_scan`.execute(db);
    },
  },
  '2026-11-28-001-directory-short-search': {
    // A search of one or two characters is looked up in an index of each group's characters and
    // pairs (./short-grams.ts), filled here from the rows there are: the scan of every id it
    // replaces cost four times as much at a million groups as at 100,000. Its scan index goes.
    async up(db: Kysely<unknown>) {
      for (const statement of dialect === 'postgres' ? postgresShortIndex : sqliteShortIndex)
        await statement.execute(db);
      await sql`drop index directory_entry_scan`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`create index directory_entry_scan on directory_entry (environment, deleted_at, user_group_id, name)`.execute(
        db,
      );
      if (dialect === 'postgres') {
        await sql`drop index directory_entry_short`.execute(db);
        await sql`drop function directory_grams(text, text)`.execute(db);
        return;
      }
      for (const name of ['directory_short_insert', 'directory_short_delete', 'directory_short_update'])
        await sql`drop trigger ${sql.id(name)}`.execute(db);
      await sql`drop table directory_short`.execute(db);
    },
  },
});

async function createTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch (error) {
    throw new Error(
      `the directory needs PostgreSQL's pg_trgm extension, which this database user may not create: run "create extension pg_trgm" in the console's database as its owner or a superuser (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  for (const column of ['user_group_id', 'name']) {
    await sql`create index ${sql.id(`directory_entry_search_${column}`)} on directory_entry using gin (${sql.id(column)} gin_trgm_ops)`.execute(
      db,
    );
  }
}

/** Idempotent: applies what is missing, in order. */
export function migrateDirectory(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'directory', directoryMigrations);
}
