import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { directoryMatchingIds } from './matching-ids';
import { directoryDb, migrateDirectory } from './schema';
import { LIST_COUNT_LIMIT, SEARCH_MATCH_LIMIT, searchDirectory } from './search';
import {
  findDirectoryEntry,
  recordDeletion,
  recordGetOrCreate,
  recordGroupsSeen,
  recordRotation,
} from './store';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('directory');
  await migrateDirectory(database);
});
afterAll(async () => {
  await database?.dispose();
});

const group = (id: string, token: string, name = `Group ${id}`) => ({
  provided_id: id,
  name,
  team_id: 7,
  token,
  properties: { plan: 'pro' },
});

describe('the directory', () => {
  it('never undoes a field of the console’s own about a group: the service’s answers write only their columns', async () => {
    // A later console-side field (a display name, a note, an owner) is a column of its own that no
    // record of the service's answers names. This one is unknown to the code, as such a field would
    // be to today's upserts: a get-or-create, a re-creation, a rotation and a deletion leave it be.
    await sql`alter table directory_entry add column console_note text`.execute(database.db);
    const seen = (isNew: boolean, token: string) =>
      recordGetOrCreate(
        database.db,
        {
          environment: 'Testing',
          operatorEmail: 'ann@example.com',
          isNew,
          group: group('noted', token, 'Name from the service'),
          mappingSent: undefined,
        },
        clock,
      );
    await seen(true, 'n'.repeat(64));
    await sql`update directory_entry set console_note = 'renewal in May' where user_group_id = 'noted'`.execute(
      database.db,
    );
    await seen(false, 'n'.repeat(64));
    await recordRotation(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'bob@example.com',
        group: group('noted', 'o'.repeat(64), 'Renamed by the service'),
      },
      clock,
    );
    await recordDeletion(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'bob@example.com',
        userGroupId: 'noted',
      },
      clock,
    );
    await seen(true, 'p'.repeat(64));
    const { rows } = await sql<{
      name: string;
      console_note: string;
    }>`select name, console_note from directory_entry where user_group_id = 'noted'`.execute(database.db);
    expect(rows).toEqual([{ name: 'Name from the service', console_note: 'renewal in May' }]);
  });

  it('records a created group with the mapping sent, by whom, and a token fingerprint only', async () => {
    await recordGetOrCreate(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'ann@example.com',
        isNew: true,
        group: group('acme', 'a'.repeat(64), 'Acme Inc.'),
        mappingSent: { schema1: 'warehouse' },
      },
      clock,
    );
    const entry = await findDirectoryEntry(database.db, 'Testing', 'acme');
    expect(entry).toMatchObject({
      name: 'Acme Inc.',
      teamId: 7,
      properties: { plan: 'pro' },
      mapping: { schema1: 'warehouse' },
      tokenFingerprint: tokenFingerprint('a'.repeat(64)),
      createdBy: 'ann@example.com',
      deletedAt: null,
    });
    expect(JSON.stringify(entry)).not.toContain('a'.repeat(64));
    // The same id in the other environment is another group.
    expect(await findDirectoryEntry(database.db, 'Customer', 'acme')).toBeNull();
  });

  it('keeps the recorded mapping, and who changed it last, when an existing group is returned unchanged', async () => {
    await recordGetOrCreate(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'bob@example.com',
        isNew: false,
        group: group('acme', 'a'.repeat(64), 'Acme Inc.'),
        mappingSent: { other: 'ignored' },
      },
      clock,
    );
    expect(await findDirectoryEntry(database.db, 'Testing', 'acme')).toMatchObject({
      mapping: { schema1: 'warehouse' },
      createdBy: 'ann@example.com',
      // A look that changed nothing (a get-or-create of an existing id, Show token's look) is a
      // read: "Last change" stays who created or rotated it (a support person's walk, round 3).
      updatedBy: 'ann@example.com',
    });
  });

  it('follows rotations and deletions, and a group created anew after one', async () => {
    await recordRotation(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'ann@example.com',
        group: group('acme', 'b'.repeat(64), 'Acme Inc.'),
      },
      clock,
    );
    expect((await findDirectoryEntry(database.db, 'Testing', 'acme'))?.tokenFingerprint).toBe(
      tokenFingerprint('b'.repeat(64)),
    );
    await recordDeletion(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'ann@example.com',
        userGroupId: 'acme',
      },
      clock,
    );
    expect(await findDirectoryEntry(database.db, 'Testing', 'acme')).toMatchObject({
      deletedBy: 'ann@example.com',
      tokenFingerprint: null,
    });
    expect((await searchDirectory(database, { environment: 'Testing', search: 'acme' })).total).toBe(0);
    expect(
      (await searchDirectory(database, { environment: 'Testing', search: 'acme', includeDeleted: true }))
        .total,
    ).toBe(1);

    await recordGetOrCreate(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: 'cy@example.com',
        isNew: true,
        group: group('acme', 'c'.repeat(64), 'Acme Again'),
        mappingSent: undefined,
      },
      clock,
    );
    expect(await findDirectoryEntry(database.db, 'Testing', 'acme')).toMatchObject({
      name: 'Acme Again',
      mapping: null,
      createdBy: 'cy@example.com',
      deletedAt: null,
    });
  });

  it('records many changes in order, one group twice in a batch and changes of every shape', async () => {
    const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 0, 0, second));
    const seen = (id: string, token: string, name: string, second: number) => ({
      environment: 'Testing' as const,
      operatorEmail: `op${second}@example.com`,
      at: at(second),
      group: group(id, token, name),
    });
    // More than one statement's worth, so that the batch is split by size as well as by shape.
    const many = Array.from({ length: 450 }, (_, n) => ({
      kind: 'get-or-create' as const,
      ...seen(`batch-${n}`, 'e'.repeat(64), `Batch ${n}`, 1),
      isNew: true,
      mappingSent: { n },
    }));
    await recordGroupsSeen(
      database.db,
      [
        ...many,
        // The same group again: created, returned unchanged (its mapping stays), then rotated twice.
        {
          kind: 'get-or-create',
          ...seen('twice', 'f'.repeat(64), 'First', 2),
          isNew: true,
          mappingSent: { a: 1 },
        },
        {
          kind: 'get-or-create',
          ...seen('twice', 'f'.repeat(64), 'Second', 3),
          isNew: false,
          mappingSent: { b: 2 },
        },
        { kind: 'rotate', ...seen('twice', 'g'.repeat(64), 'Second', 4) },
        { kind: 'rotate', ...seen('twice', 'h'.repeat(64), 'Third', 5) },
      ],
      clock,
    );
    expect(await findDirectoryEntry(database.db, 'Testing', 'batch-449')).toMatchObject({
      name: 'Batch 449',
      mapping: { n: 449 },
      createdBy: 'op1@example.com',
    });
    expect(await findDirectoryEntry(database.db, 'Testing', 'twice')).toMatchObject({
      name: 'Third',
      mapping: { a: 1 },
      properties: { plan: 'pro' },
      tokenFingerprint: tokenFingerprint('h'.repeat(64)),
      createdAt: at(2).toISOString(),
      createdBy: 'op2@example.com',
      updatedAt: at(5).toISOString(),
      updatedBy: 'op5@example.com',
    });
    expect((await searchDirectory(database, { environment: 'Testing', search: 'batch-44' })).total).toBe(11);
  });

  it('searches ids and names by prefix or substring, literally, sorted and paged', async () => {
    for (const [id, name] of [
      ['north-1', 'Northwind Traders'],
      ['north-2', 'Contoso North'],
      ['south_1', 'Fabrikam'],
      ['100%', 'Percent Co'],
    ] as const) {
      await recordGetOrCreate(
        database.db,
        {
          environment: 'Customer',
          operatorEmail: 'ann@example.com',
          isNew: true,
          group: group(id, 'd'.repeat(64), name),
          mappingSent: undefined,
        },
        clock,
      );
    }
    const ids = async (search: string, extra = {}) =>
      (await searchDirectory(database, { environment: 'Customer', search, sort: 'id', ...extra })).groups.map(
        (entry) => entry.userGroupId,
      );
    expect(await ids('north')).toEqual(['north-1', 'north-2']);
    expect(await ids('WIND')).toEqual(['north-1']);
    expect(await ids('_')).toEqual(['south_1']);
    expect(await ids('%')).toEqual(['100%']);
    // FTS syntax and a NUL are searched as text, never run or failing.
    expect(await ids('name:north OR "')).toEqual([]);
    expect(await ids('nor\0th')).toEqual(['north-1', 'north-2']);
    expect(await ids('', { descending: true })).toEqual(['south_1', 'north-2', 'north-1', '100%']);
    const page = await searchDirectory(database, {
      environment: 'Customer',
      sort: 'id',
      pageSize: 3,
      page: 2,
    });
    expect(page).toMatchObject({ total: 4, page: 2, pageCount: 2 });
    expect(page.groups.map((entry) => entry.userGroupId)).toEqual(['south_1']);
  });

  it('answers every id a search matches, for a rotation of all matches, as the search finds them', async () => {
    const matching = (search: string, limit = 100) =>
      directoryMatchingIds(database, 'Customer', search, limit);
    expect(await matching('NORTH')).toEqual(['north-1', 'north-2']);
    expect(await matching('north', 1)).toEqual(['north-1']);
    expect(await matching('_')).toEqual(['south_1']);
    expect(await matching('nor\0th')).toEqual(['north-1', 'north-2']);
    expect(await matching('  ')).toEqual([]);
    expect(await directoryMatchingIds(database, 'Testing', 'north', 100)).toEqual([]);
  });

  it('sorts byte-wise with unknown names first, the same on SQLite and PostgreSQL', async () => {
    for (const [id, name] of [
      ['sort-b', 'beta'],
      ['sort-c', 'Charlie'],
      ['sort-a', 'alpha'],
    ] as const) {
      await recordGetOrCreate(
        database.db,
        {
          environment: 'Customer',
          operatorEmail: 'ann@example.com',
          isNew: true,
          group: group(id, 'e'.repeat(64), name),
          mappingSent: undefined,
        },
        clock,
      );
    }
    // Deleted before this console ever saw it: no name.
    await recordDeletion(
      database.db,
      {
        environment: 'Customer',
        operatorEmail: 'ann@example.com',
        userGroupId: 'sort-x',
      },
      clock,
    );
    const names = async (descending: boolean) =>
      (
        await searchDirectory(database, {
          environment: 'Customer',
          search: 'sort-',
          sort: 'name',
          descending,
          includeDeleted: true,
        })
      ).groups.map((entry) => entry.name);
    expect(await names(false)).toEqual([null, 'Charlie', 'alpha', 'beta']);
    expect(await names(true)).toEqual(['beta', 'alpha', 'Charlie', null]);
  });

  it('counts a search up to its limit, says when more match, and sorts few and many matches alike', async () => {
    const at = Date.parse('2026-01-01T00:00:00Z');
    const rows = Array.from({ length: SEARCH_MATCH_LIMIT + 5 }, (_, n) => ({
      environment: 'Testing',
      user_group_id: `bulk-${String(n).padStart(5, '0')}`,
      name: n % 500 === 0 ? `Rare Zebra ${n}` : `Common ${n}`,
      updated_at: new Date(at + n * 1000).toISOString(),
    }));
    for (let start = 0; start < rows.length; start += 200)
      await directoryDb(database.db)
        .insertInto('directory_entry')
        .values(rows.slice(start, start + 200))
        .execute();
    const search = (text: string, extra = {}) =>
      searchDirectory(database, { environment: 'Testing', search: text, ...extra });

    // Many matches, by the trigram index and by a short scan: a lower bound, pages within it.
    for (const text of ['bulk', 'ul']) {
      const many = await search(text, { page: 999 });
      expect(many).toMatchObject({
        total: SEARCH_MATCH_LIMIT,
        totalIsLowerBound: true,
        page: 40,
        pageCount: 40,
      });
      const first = await search(text, { sort: 'updated', descending: true });
      expect(first.groups[0]?.userGroupId).toBe(`bulk-${String(SEARCH_MATCH_LIMIT + 4).padStart(5, '0')}`);
    }
    // Few matches: counted exactly, in the order asked for.
    const few = await search('zebra', { sort: 'name' });
    expect(few).toMatchObject({ total: 3, totalIsLowerBound: false, pageCount: 1 });
    expect(few.groups.map((entry) => entry.name)).toEqual([
      'Rare Zebra 0',
      'Rare Zebra 1000',
      'Rare Zebra 500',
    ]);
    // The unfiltered list counts exactly, past the search's limit.
    const all = await searchDirectory(database, { environment: 'Testing', includeDeleted: true });
    expect(all.totalIsLowerBound).toBe(false);
    expect(all.total).toBeGreaterThan(SEARCH_MATCH_LIMIT);
    // A search of one or two characters (no trigram) finds the same groups as a longer one would.
    const short = await search('7', { sort: 'id' });
    const { rows: liked } = await sql<{ n: number | string }>`select count(*) as n from directory_entry
      where environment = 'Testing' and deleted_at is null and (user_group_id like '%7%' or name like '%7%')`.execute(
      database.db,
    );
    expect(short.total).toBe(Number(liked[0]?.n));
    const shortIds = (await search('7', { sort: 'id', pageSize: 100, page: 2 })).groups.map(
      (entry) => entry.userGroupId,
    );
    expect(shortIds.every((id) => id.includes('7'))).toBe(true);
  });

  it('counts the list without a search up to its own bound: a million groups are not counted per page', async () => {
    const rows = Array.from({ length: LIST_COUNT_LIMIT + 1 }, (_, n) => ({
      environment: 'Customer',
      user_group_id: `listed-${String(n).padStart(6, '0')}`,
      name: null,
      updated_at: '2099-02-01T00:00:00.000Z',
    }));
    for (let start = 0; start < rows.length; start += 500)
      await directoryDb(database.db)
        .insertInto('directory_entry')
        .values(rows.slice(start, start + 500))
        .execute();
    const list = await searchDirectory(database, { environment: 'Customer', sort: 'id', page: 10_000 });
    expect(list).toMatchObject({
      total: LIST_COUNT_LIMIT,
      totalIsLowerBound: true,
      pageCount: 400,
      page: 400,
    });
    // Ties on the sort's value go by id in the same direction, as the index holds them.
    const newest = await searchDirectory(database, { environment: 'Customer', pageSize: 2 });
    expect(newest.groups.map((entry) => entry.userGroupId)).toEqual(['listed-010000', 'listed-009999']);
  });
});
