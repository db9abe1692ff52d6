import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase, testDialect } from '@/lib/testing/console-test-database';
import { autoIncrementId, binaryText, migrateModule, whileMigrationLocked } from './migrate';

// Runs on SQLite, and on PostgreSQL in the PostgreSQL pass (scripts/test-postgres.ts).
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
beforeAll(async () => {
  database = await openTestConsoleDatabase('migrate');
});
afterAll(async () => {
  await database?.dispose();
});

const untyped = () => database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

describe('migrateModule', () => {
  it('runs a module written once for both dialects, once, with ids the database numbers', async () => {
    const migrations = (dialect: 'sqlite' | 'postgres') => ({
      '001-thing': {
        async up(db: Kysely<unknown>) {
          await db.schema
            .createTable('thing')
            .addColumn('id', ...autoIncrementId(dialect))
            .addColumn('label', binaryText(dialect), (column) => column.notNull())
            .execute();
        },
      },
    });
    await migrateModule(database, 'thing', migrations);
    await migrateModule(database, 'thing', migrations); // idempotent
    const ids = [];
    for (const label of ['b', 'C', 'a']) {
      const { id } = await untyped()
        .insertInto('thing')
        .values({ label })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(id);
    }
    expect(ids).toEqual([1, 2, 3]);
    const labels = await untyped().selectFrom('thing').select('label').orderBy('label').execute();
    // Byte order on both: upper case first.
    expect(labels.map((row) => row.label)).toEqual(['C', 'a', 'b']);
  });

  it('takes a module whose migrations do not depend on the dialect as they are', async () => {
    const migrations = {
      '001-plain': {
        async up(db: Kysely<unknown>) {
          await db.schema
            .createTable('plain')
            .addColumn('name', 'text', (column) => column.primaryKey())
            .execute();
        },
      },
    };
    await migrateModule(database, 'plain', migrations);
    await migrateModule(database, 'plain', migrations);
    const { rows } = await sql<{ name: string }>`select name from plain_migration`.execute(database.db);
    expect(rows.map((row) => row.name)).toEqual(['001-plain']);
  });

  it('leaves nothing behind for a module without migrations yet', async () => {
    await migrateModule(database, 'empty', {});
    await migrateModule(database, 'empty', () => ({}));
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((table) => table.name).filter((name) => name.startsWith('empty'))).toEqual([]);
  });

  // SQLite has one process per database file; instances share a PostgreSQL database.
  it.skipIf(testDialect() === 'sqlite')('lets one instance migrate at a time on PostgreSQL', async () => {
    const events: string[] = [];
    // The first in holds the lock until the other is seen waiting for it (no sleep: PostgreSQL says so).
    const otherWaiting = async () => {
      const { rows } = await sql<{ waiting: string | number }>`
        select count(*) as waiting from pg_locks where locktype = 'advisory' and not granted
          and database = (select oid from pg_database where datname = current_database())`.execute(
        database.db,
      );
      return Number(rows[0]?.waiting) > 0;
    };
    const run = (name: string) =>
      whileMigrationLocked(database, async () => {
        events.push(`${name} in`);
        if (events.length === 1) while (!(await otherWaiting())) {}
        events.push(`${name} out`);
      });
    await Promise.all([run('a'), run('b')]);
    const first = events[0]?.split(' ')[0];
    const second = first === 'a' ? 'b' : 'a';
    expect(events).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
  });
});
