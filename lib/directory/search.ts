/**
 * The directory's search: one page of an environment's groups, by part of an id or a name, sorted
 * and paged (the ids a search matches: ./matching-ids.ts). SQLite's FTS5 trigram table, or ILIKE
 * over pg_trgm indexes on PostgreSQL, with the same results.
 */

import { sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import {
  containing,
  directoryRowsEstimate,
  liveRows,
  matchingKeys,
  type RowKey,
  rowKeyOf,
  sqliteIndexedCount,
  sqliteSearchIndex,
} from './matching';
import { rowsByKey } from './rows-by-key';
import type { DirectoryEntryTable } from './schema';
import { isShortSearch, postgresHoldsShort } from './short-grams';
import { type DirectoryEntry, toEntry } from './store';

export const directorySorts = ['updated', 'id', 'name', 'created'] as const;
export type DirectorySort = (typeof directorySorts)[number];

export interface DirectoryQuery {
  environment: Environment;
  /** Part of an id or a name (case-insensitive); empty lists every group. */
  search?: string;
  sort?: DirectorySort;
  descending?: boolean;
  page?: number;
  pageSize?: number;
  includeDeleted?: boolean;
}

export interface DirectoryPage {
  groups: DirectoryEntry[];
  /** Groups that match; for a search, counted up to SEARCH_MATCH_LIMIT (see totalIsLowerBound). */
  total: number;
  /** True when a search matches more groups than were counted: show "1,000+", ask to refine. */
  totalIsLowerBound: boolean;
  page: number;
  pageCount: number;
  pageSize: number;
}

const sortColumn = {
  updated: 'updated_at',
  id: 'user_group_id',
  name: 'name',
  created: 'created_at',
} as const satisfies Record<DirectorySort, keyof DirectoryEntryTable>;
type SortColumn = (typeof sortColumn)[DirectorySort];

/**
 * A search that matches thousands of groups is one to refine, not to page through: a search
 * collects at most this many matches (40 pages of 25) and says when there are more. A few matches
 * are then sorted by themselves; many are found early on a walk of the sort's index.
 */
export const SEARCH_MATCH_LIMIT = 1_000;

/**
 * The list without a search counts this far (400 pages of 25), from the index alone: counting a
 * million groups on every page is what made the first page slow at that size.
 */
export const LIST_COUNT_LIMIT = 10_000;

/**
 * How many rows a search with many matches reads in the sort's order before it turns to reading all
 * its matches from the index: WALK_WINDOW, and on PostgreSQL at most a hundredth of the directory by
 * its statistics; 20 times the rows up to its page, when more. At 10,000 groups 5,000 rows were half
 * the directory, and whether the walk found the page depended on the matches' age: `heritage`, the
 * oldest 5,000, was found at 10,000 groups and read whole after the walk at 100,000 (1.4–1.54 growth,
 * bench/README round 21). The same share at every size misses an evenly spread term only under 2,500
 * matches (25 a page), which are then read whole.
 */
const WALK_WINDOW = 5_000;
const WALK_SHARE = 100;

async function walkWindow(database: ConsoleDatabase, rowsToPageEnd: number) {
  const rows = await directoryRowsEstimate(database);
  const share = rows === null ? WALK_WINDOW : Math.min(WALK_WINDOW, Math.ceil(rows / WALK_SHARE));
  return Math.max(share, rowsToPageEnd * 20);
}

/**
 * On SQLite, a search whose index holds at most this many rows reads all its matches and sorts them,
 * without the walk: whether the walk finds a page depends on where the matches sit, so a term held
 * by the oldest 5,000 groups was found by it at 10,000 groups and read whole after it at 100,000
 * (3.1 ms to 6.9, p50 in-process). Counted from the index alone (1.2 ms for 5,000) and read sorted
 * (~0.75 ms a thousand), its cost follows the matches, not the directory: 6.3 ms at both sizes.
 * PostgreSQL's trigram bitmap cannot stop at a count: there it is the walk first.
 */
export const READ_WHOLE_UP_TO = 5_000;

/**
 * How many rows of the sort's index a search of one or two characters reads on PostgreSQL for its
 * thousand matches before it asks the index of characters and pairs: a part one group in twenty
 * holds. The first FIRST_WINDOW are read alone first: a part fewer than one in twenty of them hold
 * goes to the index at once (a no-match search read all 7,600 rows at 10,000 groups, 20,000 at more).
 */
const COUNT_WINDOW = 20_000;
const FIRST_WINDOW = 5_000;

export async function searchDirectory(
  database: ConsoleDatabase,
  query: DirectoryQuery,
): Promise<DirectoryPage> {
  const pageSize = query.pageSize ?? 25;
  // NUL ends an SQLite string early (the FTS query would fail) and PostgreSQL text cannot hold
  // one. No id or name holds one.
  const search = query.search?.replaceAll('\0', '').trim() ?? '';
  const { column: sort, descending } = sortingOf(query);
  if (search) {
    // PostgreSQL reads a part's rows from the GIN index as a whole bitmap, which cannot stop at the
    // limit: one or two characters common among the first rows of the sort are "1,000+" at once.
    if (database.dialect === 'postgres' && isShortSearch(search) && (await manyInWindow(search)))
      return manyMatches(search);
    const keys = await matchingKeys(database, query, search, SEARCH_MATCH_LIMIT);
    if (keys.length <= SEARCH_MATCH_LIMIT) return fewMatches(keys);
    return manyMatches(search);
  }
  const counted = await database.reads
    .selectFrom(
      liveRows(database.reads, query)
        .select(rowKeyOf(database).as('row_key'))
        .limit(LIST_COUNT_LIMIT + 1)
        .as('listed'),
    )
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  // PostgreSQL answers a count as a bigint string.
  const total = Number(counted.total);
  return pageOf({
    total: Math.min(total, LIST_COUNT_LIMIT),
    totalIsLowerBound: total > LIST_COUNT_LIMIT,
  });

  /** A page of rows read in the order of the sort's index (ties by id, the same way). */
  async function pageOf(counted: { total: number; totalIsLowerBound: boolean }): Promise<DirectoryPage> {
    const pageCount = Math.max(1, Math.ceil(counted.total / pageSize));
    const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
    const found = await inSortOrder(database, query)
      .select(rowKeyOf(database).as('row_key'))
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const groups = await entriesInOrder(
      database,
      query,
      found.map((row) => row.row_key),
    );
    return { groups, ...counted, page, pageCount, pageSize };
  }

  /** The first `walked` rows of the sort's index, with what a search compares and sorts by. */
  function sortWindow(walked: number) {
    return inSortOrder(database, query)
      .select([
        rowKeyOf(database).as('row_key'),
        'directory_entry.user_group_id',
        'directory_entry.name',
        sql.ref(`directory_entry.${sort}`).as('sort_value'),
      ])
      .limit(walked);
  }

  /** Whether the first COUNT_WINDOW rows in the sort's order hold more than SEARCH_MATCH_LIMIT matches. */
  async function manyInWindow(search: string): Promise<boolean> {
    const first = await matchesInWindow(search, FIRST_WINDOW);
    if (first > SEARCH_MATCH_LIMIT) return true;
    // So few that, as dense over the whole window, they would not pass the limit.
    if (first * COUNT_WINDOW <= SEARCH_MATCH_LIMIT * FIRST_WINDOW) return false;
    return (await matchesInWindow(search, COUNT_WINDOW)) > SEARCH_MATCH_LIMIT;
  }

  /** The matches among the first `walked` rows in the sort's order, counted up to SEARCH_MATCH_LIMIT + 1. */
  async function matchesInWindow(search: string, walked: number): Promise<number> {
    const { rows } = await sql<{ matches: number }>`select count(*) as matches from (
        select 1 from (${sortWindow(walked)}) as walked
        where ${containing(database, search, 'walked')}
        limit ${SEARCH_MATCH_LIMIT + 1}) as found`.execute(database.reads);
    return Number(rows[0]?.matches ?? 0);
  }

  /**
   * More than SEARCH_MATCH_LIMIT matches ("1,000+"). Where they are common, the first rows of a walk
   * of the sort's index hold the page; where they are rare there (a term whose 50,000 matches are
   * all old groups, sorted newest first), the matches are read from the trigram index and sorted:
   * the cost of the matches, never of the rows between them (the walk alone crossed 950,000 groups
   * at a million, 17 times its cost at 100,000).
   */
  async function manyMatches(search: string): Promise<DirectoryPage> {
    const counted = { total: SEARCH_MATCH_LIMIT, totalIsLowerBound: true };
    const pageCount = Math.ceil(SEARCH_MATCH_LIMIT / pageSize);
    const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
    const offset = (page - 1) * pageSize;
    const done = async (keys: RowKey[]) => ({
      groups: await entriesInOrder(database, query, keys),
      ...counted,
      page,
      pageCount,
      pageSize,
    });
    const reads = database.reads;
    const allSorted = async () =>
      (await allMatchesSorted(database, query, search, { pageSize, offset }).execute(reads)).rows.map(
        (row) => row.row_key,
      );
    if (
      database.dialect === 'sqlite' &&
      (await sqliteIndexedCount(database, search, READ_WHOLE_UP_TO)) <= READ_WHOLE_UP_TO
    )
      return done(await allSorted());
    const direction = descending ? sql`desc` : sql`asc`;
    const nulls = nullsAsIndexed(database, sort, descending);
    const window = sortWindow(await walkWindow(database, offset + pageSize));
    const { rows: inWindow } = await sql<{ row_key: RowKey }>`select row_key from (${window}) as walked
      where ${containing(database, search, 'walked')}
      order by sort_value ${direction}${nulls}, user_group_id ${direction}
      limit ${pageSize} offset ${offset}`.execute(reads);
    if (inWindow.length === pageSize) return done(inWindow.map((row) => row.row_key));
    return done(await allSorted());
  }

  /** At most SEARCH_MATCH_LIMIT matches: read by key, sorted here as the indexes would sort them. */
  async function fewMatches(keys: RowKey[]): Promise<DirectoryPage> {
    const pageCount = Math.max(1, Math.ceil(keys.length / pageSize));
    const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
    const rows = await rowsByKey(database, query.environment, keys);
    const sortKey = (row: DirectoryEntryTable) => {
      const value = row[sort];
      return value === null ? null : Buffer.from(String(value));
    };
    const ordered = rows
      .map((row) => ({ row, key: sortKey(row), id: Buffer.from(row.user_group_id) }))
      .sort((a, b) => {
        // NULL first ascending, last descending; byte order, as SQLite's BINARY and PostgreSQL's "C".
        const byValue =
          a.key === null || b.key === null
            ? Number(b.key === null) - Number(a.key === null)
            : Buffer.compare(a.key, b.key);
        const order = byValue !== 0 ? byValue : Buffer.compare(a.id, b.id);
        return descending ? -order : order;
      });
    const groups = ordered.slice((page - 1) * pageSize, page * pageSize).map(({ row }) => toEntry(row));
    return { groups, total: keys.length, totalIsLowerBound: false, page, pageCount, pageSize };
  }
}

/** The column a query sorts by, and which way: newest changes first when it names none. */
function sortingOf(query: DirectoryQuery) {
  return {
    column: sortColumn[query.sort ?? 'updated'],
    descending: query.descending ?? query.sort === undefined,
  };
}

/**
 * Where NULL (a name or creation time never seen) goes, said as the live indexes hold it: first
 * ascending, last descending, as SQLite sorts it by itself and PostgreSQL's indexes are made (`nulls
 * first`). An id is never NULL, and its index (remade by migration 002) holds it without the clause:
 * said there, PostgreSQL sorted every live group instead of reading the index, 160 ms at a million
 * groups against 0.1 (lib/directory/plans.test.ts).
 */
function nullsAsIndexed(database: ConsoleDatabase, column: SortColumn, descending: boolean) {
  if (database.dialect === 'sqlite' || column === 'user_group_id') return sql``;
  return descending ? sql` nulls last` : sql` nulls first`;
}

/** The live groups of a query's environment in the order of its sort's index (ties by id, the same way). */
export function inSortOrder(database: ConsoleDatabase, query: DirectoryQuery) {
  const { column, descending } = sortingOf(query);
  const direction = descending ? sql`desc` : sql`asc`;
  return liveRows(database.reads, query)
    .orderBy(
      sql`${sql.ref(`directory_entry.${column}`)} ${direction}${nullsAsIndexed(database, column, descending)}`,
    )
    .orderBy('directory_entry.user_group_id', descending ? 'desc' : 'asc');
}

/**
 * A page of every match of a search, sorted: the matches drive, the sort's index is not walked. On
 * SQLite from an FTS table (materialized, the join written CROSS so that its planner keeps that
 * order); on PostgreSQL from pg_trgm's index, or under three characters the index of characters and
 * pairs, in a subquery that `offset 0` keeps whole (plans.test.ts). The sort value is compared as
 * bytes ("C"), as fewMatches sorts and as every sort's values (ISO times, ids, names) sit in their
 * indexes: at 3,800 matches that and the fence in place of a materialized CTE took 7.6 ms to 5.9.
 */
export function allMatchesSorted(
  database: ConsoleDatabase,
  query: DirectoryQuery,
  search: string,
  { pageSize, offset }: { pageSize: number; offset: number },
) {
  const { column: sort, descending } = sortingOf(query);
  const direction = descending ? sql`desc` : sql`asc`;
  const live = query.includeDeleted ? sql`` : sql`and entry.deleted_at is null`;
  if (database.dialect === 'sqlite') {
    const index = sqliteSearchIndex(search);
    return sql<{ row_key: RowKey }>`with matches as materialized (
        select rowid from ${index.table} where ${index.table} match ${index.term})
      select entry.rowid as row_key from matches cross join directory_entry as entry
      where entry.rowid = matches.rowid and entry.environment = ${query.environment} ${live}
      order by ${sql.ref(`entry.${sort}`)} ${direction}, entry.user_group_id ${direction}
      limit ${pageSize} offset ${offset}`;
  }
  const short = isShortSearch(search) ? sql`and ${postgresHoldsShort(search, 'entry')}` : sql``;
  return sql<{ row_key: RowKey }>`select user_group_id as row_key from (
      select entry.user_group_id, ${sql.ref(`entry.${sort}`)} collate "C" as sort_value
      from directory_entry as entry
      where entry.environment = ${query.environment} ${live}
        and ${containing(database, search, 'entry')} ${short}
      offset 0) as matches
    order by sort_value ${direction}${nullsAsIndexed(database, sort, descending)}, user_group_id ${direction}
    limit ${pageSize} offset ${offset}`;
}

/** The rows of these keys, in the keys' order. */
async function entriesInOrder(database: ConsoleDatabase, query: DirectoryQuery, order: RowKey[]) {
  const byKey = new Map(
    (await rowsByKey(database, query.environment, order)).map((row) => [row.row_key, row]),
  );
  return order.flatMap((key) => {
    const row = byKey.get(key);
    return row ? [toEntry(row)] : [];
  });
}
