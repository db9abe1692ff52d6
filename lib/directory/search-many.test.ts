import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { directoryRowsEstimate } from './matching';
import { migrateDirectory } from './schema';
import { READ_WHOLE_UP_TO, SEARCH_MATCH_LIMIT, searchDirectory } from './search';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

// 6,000 old groups named "Vintage …" (updated first), the oldest 1,200 "Vintage Classic …", then
// 8,000 newer that do not match: sorted newest first, a walk of the sort's index would cross all
// 8,000 before the first match. On SQLite "classic" is read whole at once and "vintage" after a walk
// that misses (READ_WHOLE_UP_TO); PostgreSQL walks first for both.
const OLD = 6_000;
const CLASSIC = 1_200;
const NEW = 8_000;

beforeAll(async () => {
  database = await openTestConsoleDatabase('directory-many');
  await migrateDirectory(database);
  const { db } = database;
  const rows = (from: number, to: number, idOf: string, nameOf: string) =>
    sql`insert into directory_entry (environment, user_group_id, name, updated_at, deleted_at)
      select 'Customer', ${sql.raw(idOf)}, ${sql.raw(nameOf)},
        ${sql.raw(database.dialect === 'postgres' ? `to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i, 'unixepoch')`)},
        case when i % 50 = 3 then '2026-06-01T00:00:00.000Z' end
      from ${sql.raw(database.dialect === 'postgres' ? `generate_series(${from}, ${to}) as i` : `(with recursive n(i) as (select ${from} union all select i + 1 from n where i < ${to}) select i from n)`)}`.execute(
      db,
    );
  await rows(
    1,
    OLD,
    `'old-' || i`,
    `case when i <= ${CLASSIC} then 'Vintage Classic ' else 'Vintage ' end || i`,
  );
  await rows(OLD + 1, OLD + NEW, `'new-' || i`, `'Modern ' || i`);
});
afterAll(async () => {
  await database?.dispose();
});

const liveOld = (count: number) =>
  Array.from({ length: count }, (_, index) => index + 1)
    .filter((i) => i % 50 !== 3)
    .map((i) => `old-${i}`);

describe("the walk's window", () => {
  it("reads the directory's size from PostgreSQL's statistics (SQLite keeps none)", async () => {
    if (database.dialect === 'postgres') {
      await sql`analyze directory_entry`.execute(database.db);
      expect(await directoryRowsEstimate(database)).toBe(OLD + NEW);
    } else expect(await directoryRowsEstimate(database)).toBeNull();
  });
});

describe('a search with many matches, all of them old', () => {
  it('holds matches on both sides of the count read whole at once', () => {
    expect(CLASSIC).toBeGreaterThan(SEARCH_MATCH_LIMIT);
    expect(CLASSIC).toBeLessThanOrEqual(READ_WHOLE_UP_TO);
    expect(OLD).toBeGreaterThan(READ_WHOLE_UP_TO);
  });

  it.each([
    ['vintage', OLD],
    ['classic', CLASSIC],
  ])('pages "%s" newest first, as the index sorts them, and says "1,000+"', async (term, count) => {
    const search = (extra = {}) =>
      searchDirectory(database, { environment: 'Customer', search: term, ...extra });
    const matches = liveOld(count);
    const first = await search();
    expect(first).toMatchObject({ total: SEARCH_MATCH_LIMIT, totalIsLowerBound: true, page: 1 });
    expect(first.groups.map((entry) => entry.userGroupId)).toEqual(matches.slice(-25).reverse());
    const third = await search({ page: 3 });
    expect(third.groups.map((entry) => entry.userGroupId)).toEqual(matches.slice(-75, -50).reverse());
    // By id, ascending: byte order ("old-1", "old-10", "old-100", …).
    const byId = await search({ sort: 'id', descending: false });
    expect(byId.groups.map((entry) => entry.userGroupId)).toEqual(
      [...matches].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).slice(0, 25),
    );
    // Deleted ones when asked for.
    const withDeleted = await search({ includeDeleted: true, page: 2 });
    expect(withDeleted.groups.map((entry) => entry.userGroupId)).toEqual(
      Array.from({ length: 25 }, (_, index) => `old-${count - 25 - index}`),
    );
  });

  it('answers two letters the same way, common among the newest or only among the old', async () => {
    const search = (text: string, extra = {}) =>
      searchDirectory(database, { environment: 'Customer', search: text, ...extra });
    // "de" (Modern): thousands among the newest rows.
    const recent = await search('de');
    expect(recent).toMatchObject({ total: SEARCH_MATCH_LIMIT, totalIsLowerBound: true });
    const liveModern = Array.from({ length: NEW }, (_, index) => OLD + NEW - index)
      .filter((i) => i % 50 !== 3)
      .map((i) => `new-${i}`);
    expect(recent.groups.map((entry) => entry.userGroupId)).toEqual(liveModern.slice(0, 25));
    // "ag" (Vintage): only the old ones.
    const old = await search('ag', { page: 2 });
    expect(old).toMatchObject({ total: SEARCH_MATCH_LIMIT, totalIsLowerBound: true, page: 2 });
    expect(old.groups.map((entry) => entry.userGroupId)).toEqual(liveOld(OLD).slice(-50, -25).reverse());
  });
});
