/**
 * The directory's search: one page of an environment's groups, by part of an id or a name, sorted
 * and paged, and the ids a search matches (a rotation of every match). SQLite's FTS5 trigram table,
 * or ILIKE over pg_trgm indexes on PostgreSQL, with the same results.
 */

import { type SqlBool, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import type { Environment } from '@/lib/environments';
import { type DirectoryEntryTable, directoryDb } from './schema';
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

/** Fewer characters than a trigram: searched by scanning, not by the index. */
const MIN_INDEXED_SEARCH = 3;

/**
 * A search that matches thousands of groups is one to refine, not to page through: a search
 * collects at most this many matches (40 pages of 25) and says when there are more. Collecting
 * them first is also what keeps a search fast at 100,000 groups: a few matches are then sorted by
 * themselves instead of found by walking the whole sort index, and many matches are found early on
 * that walk. An unfiltered list counts and pages exactly.
 */
export const SEARCH_MATCH_LIMIT = 1_000;

type DirectoryRows = ReturnType<typeof liveRows>;

function liveRows(db: ConsoleDb, query: DirectoryQuery) {
  const rows = directoryDb(db)
    .selectFrom('directory_entry')
    .where('directory_entry.environment', '=', query.environment);
  return query.includeDeleted ? rows : rows.where('directory_entry.deleted_at', 'is', null);
}

/**
 * What names a row within one environment's search: SQLite's rowid (the FTS table's key);
 * PostgreSQL has no stable rowid, and the id is unique within an environment.
 */
type RowKey = number | string;
const rowKeyOf = (database: ConsoleDatabase) =>
  database.dialect === 'postgres'
    ? sql<RowKey>`directory_entry.user_group_id`
    : sql<RowKey>`directory_entry.rowid`;

/** A LIKE of part of the id or the name, wildcards in the search taken literally. */
function containing(database: ConsoleDatabase, search: string) {
  const pattern = `%${escapeLike(search)}%`;
  // PostgreSQL: ILIKE ignores case as SQLite's LIKE does, and pg_trgm's GIN indexes answer it.
  const like = database.dialect === 'postgres' ? sql`ilike` : sql`like`;
  return sql<SqlBool>`(${sql.ref('directory_entry.user_group_id')} ${like} ${pattern} escape '\\' or ${sql.ref('directory_entry.name')} ${like} ${pattern} escape '\\')`;
}

/** The rows matching a search, as a filter, and their keys up to SEARCH_MATCH_LIMIT + 1. */
async function matchSearch(database: ConsoleDatabase, query: DirectoryQuery, search: string) {
  const { db } = database;
  const rows = liveRows(db, query);
  // Characters, not UTF-16 units: the trigram index counts code points.
  if (database.dialect === 'sqlite' && [...search].length >= MIN_INDEXED_SEARCH) {
    // A trigram phrase: the characters as typed, quotes doubled.
    const phrase = `"${search.replaceAll('"', '""')}"`;
    // Collected from the index's side, which stops at the limit.
    const { rows: found } = await sql<{ rowid: number }>`select directory_entry.rowid as rowid
      from directory_search join directory_entry on directory_entry.rowid = directory_search.rowid
      where directory_search match ${phrase} and directory_entry.environment = ${query.environment}
      ${query.includeDeleted ? sql`` : sql`and directory_entry.deleted_at is null`}
      limit ${SEARCH_MATCH_LIMIT + 1}`.execute(db);
    const filter = rows.where(
      sql<SqlBool>`directory_entry.rowid in (select rowid from directory_search where directory_search match ${phrase})`,
    );
    return { filter, keys: found.map((row): RowKey => row.rowid) };
  }
  const filter = rows.where(containing(database, search));
  // SQLite reads a short search from the id index, which holds the name too: no row is read to test it.
  const found = await filter
    .select(rowKeyOf(database).as('row_key'))
    .limit(SEARCH_MATCH_LIMIT + 1)
    .execute();
  return { filter, keys: found.map((row) => row.row_key) };
}

export async function searchDirectory(
  database: ConsoleDatabase,
  query: DirectoryQuery,
): Promise<DirectoryPage> {
  const { db } = database;
  const rowKey = rowKeyOf(database);
  const pageSize = query.pageSize ?? 25;
  // NUL ends an SQLite string early (the FTS query would fail) and PostgreSQL text cannot hold
  // one. No id or name holds one.
  const search = query.search?.replaceAll('\0', '').trim() ?? '';
  let candidates: DirectoryRows;
  let total: number;
  let totalIsLowerBound = false;
  if (search) {
    const { filter, keys } = await matchSearch(database, query, search);
    totalIsLowerBound = keys.length > SEARCH_MATCH_LIMIT;
    total = Math.min(keys.length, SEARCH_MATCH_LIMIT);
    candidates = totalIsLowerBound
      ? filter
      : liveRows(db, query).where(
          keys.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`${rowKey} in (${sql.join(keys)})`,
        );
  } else {
    candidates = liveRows(db, query);
    const counted = await candidates.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    // PostgreSQL answers a count as a bigint string.
    total = Number(counted.total);
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
  const sort = sortColumn[query.sort ?? 'updated'];
  const direction = (query.descending ?? query.sort === undefined) ? 'desc' : 'asc';
  // The page's rows found in the index first, then read: a deep page skips index entries, not rows.
  const found = await candidates
    .select(rowKey.as('row_key'))
    .orderBy(`directory_entry.${sort}`, (order) => {
      const ordered = direction === 'desc' ? order.desc() : order.asc();
      // SQLite sorts NULL (a name or creation time never seen) first; PostgreSQL last unless told.
      if (database.dialect === 'sqlite') return ordered;
      return direction === 'desc' ? ordered.nullsLast() : ordered.nullsFirst();
    })
    .orderBy('directory_entry.user_group_id', 'asc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const order = found.map((row) => row.row_key);
  const rows =
    order.length === 0
      ? []
      : await directoryDb(db)
          .selectFrom('directory_entry')
          .selectAll()
          .select(rowKey.as('row_key'))
          .where('directory_entry.environment', '=', query.environment)
          .where(sql<SqlBool>`${rowKey} in (${sql.join(order)})`)
          .execute();
  const byKey = new Map(rows.map((row) => [row.row_key, row]));
  const groups = order.flatMap((key) => {
    const row = byKey.get(key);
    return row ? [toEntry(row)] : [];
  });
  return { groups, total, totalIsLowerBound, page, pageCount, pageSize };
}

/**
 * The ids of the live groups a search matches (part of an id or a name, as the directory's search),
 * in id order, at most `limit`: a rotation of "all matches" is made from the search itself.
 */
export async function directoryMatchingIds(
  database: ConsoleDatabase,
  environment: Environment,
  search: string,
  limit: number,
): Promise<string[]> {
  const part = search.replaceAll('\0', '').trim();
  if (!part) return [];
  const rows = await liveRows(database.db, { environment })
    .where(containing(database, part))
    .select('directory_entry.user_group_id')
    .orderBy('directory_entry.user_group_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_group_id);
}
