import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { directoryDb, directoryMigrations, migrateDirectory } from './schema';
import { searchDirectory } from './search';
import { recordDeletion, recordGetOrCreate } from './store';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('directory-short');
  await migrateDirectory(database);
});
afterAll(async () => {
  await database?.dispose();
});

const ids = async (search: string, includeDeleted = false) =>
  (
    await searchDirectory(database, {
      environment: 'Customer',
      search,
      sort: 'id',
      includeDeleted,
      pageSize: 100,
    })
  ).groups.map((entry) => entry.userGroupId);

const seen = (id: string, name: string) =>
  recordGetOrCreate(database.db, {
    environment: 'Customer',
    operatorEmail: 'p@example.com',
    isNew: true,
    group: { provided_id: id, name, team_id: 1, token: `token-${id}` },
    mappingSent: undefined,
  });

describe('a search of one or two characters, looked up in the index of characters and pairs', () => {
  it('finds a part of the id or the name, ASCII case ignored, wildcards taken literally', async () => {
    await seen('Kappa-9', 'Ωmega 100%');
    await seen('beta_2', 'Zeta');
    await seen('other', 'Éclair');
    expect(await ids('pp')).toEqual(['Kappa-9']);
    expect(await ids('KA')).toEqual(['Kappa-9']);
    expect(await ids('-9')).toEqual(['Kappa-9']);
    expect(await ids('%')).toEqual(['Kappa-9']);
    expect(await ids('_')).toEqual(['beta_2']);
    expect(await ids('ta')).toEqual(['beta_2']);
    expect(await ids('Ωm')).toEqual(['Kappa-9']);
    // As LIKE and ILIKE on the "C" columns: only ASCII letters fold.
    expect(await ids('É')).toEqual(['other']);
    expect(await ids('é')).toEqual([]);
    // A pair across the id and the name is in neither.
    expect(await ids('9Ω')).toEqual([]);
    expect(await ids('qz')).toEqual([]);
  });

  it('follows a rename, a deletion and a row that goes, in the writer’s transaction', async () => {
    await seen('gamma-1', 'Quartz');
    expect(await ids('qu')).toEqual(['gamma-1']);
    await seen('gamma-1', 'Sapphire');
    expect(await ids('qu')).toEqual([]);
    expect(await ids('ph')).toEqual(['gamma-1']);
    await recordDeletion(database.db, {
      environment: 'Customer',
      operatorEmail: 'p@example.com',
      userGroupId: 'gamma-1',
    });
    expect(await ids('ph')).toEqual([]);
    expect(await ids('ph', true)).toEqual(['gamma-1']);
    await directoryDb(database.db)
      .deleteFrom('directory_entry')
      .where('user_group_id', '=', 'gamma-1')
      .execute();
    expect(await ids('ph', true)).toEqual([]);
  });

  it('holds the rows that were there before the index was made (its migration fills it)', async () => {
    const migrator = new Migrator({
      db: database.db as unknown as Kysely<unknown>,
      provider: {
        getMigrations: async () =>
          typeof directoryMigrations === 'function'
            ? directoryMigrations(database.dialect)
            : directoryMigrations,
      },
      migrationTableName: 'directory_migration',
      migrationLockTableName: 'directory_migration_lock',
    });
    const undone = await migrator.migrateDown();
    expect(undone.error).toBeUndefined();
    expect(undone.results?.[0]?.migrationName).toBe('2026-11-28-001-directory-short-search');
    await seen('delta-7', 'Xylophone');
    await migrateDirectory(database);
    expect(await ids('xy')).toEqual(['delta-7']);
    expect(await ids('y')).toEqual(['delta-7']);
    expect(await ids('Kappa-9'.slice(0, 2))).toEqual(['Kappa-9']);
  });
});
