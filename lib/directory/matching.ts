/**
 * Which rows of the directory a search matches: SQLite's FTS5 trigram table for three characters
 * or more, a chunked scan of the id index for fewer (each chunk a statement of its own on the read
 * pool), ILIKE over pg_trgm indexes on PostgreSQL. lib/directory/search.ts pages and sorts them.
 */
import { type SqlBool, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import type { Environment } from '@/lib/environments';
import { directoryDb } from './schema';

/** What a match depends on: the environment, and whether deleted groups count. */
export interface MatchQuery {
  environment: Environment;
  includeDeleted?: boolean;
}

/** Fewer characters than a trigram: searched by scanning, not by the index. */
export const MIN_INDEXED_SEARCH = 3;

/** How many index entries a short (unindexed) search reads on SQLite in one statement. */
const SCAN_CHUNK = 50_000;

export function liveRows(db: ConsoleDb, query: MatchQuery) {
  const rows = directoryDb(db)
    .selectFrom('directory_entry')
    .where('directory_entry.environment', '=', query.environment);
  return query.includeDeleted ? rows : rows.where('directory_entry.deleted_at', 'is', null);
}

/**
 * What names a row within one environment's search: SQLite's rowid (the FTS table's key);
 * PostgreSQL has no stable rowid, and the id is unique within an environment.
 */
export type RowKey = number | string;
export const rowKeyOf = (database: ConsoleDatabase) =>
  database.dialect === 'postgres'
    ? sql<RowKey>`directory_entry.user_group_id`
    : sql<RowKey>`directory_entry.rowid`;

/** A LIKE of part of the id or the name, wildcards in the search taken literally. */
export function containing(database: ConsoleDatabase, search: string) {
  const pattern = `%${escapeLike(search)}%`;
  // PostgreSQL: ILIKE ignores case as SQLite's LIKE does, and pg_trgm's GIN indexes answer it.
  const like = database.dialect === 'postgres' ? sql`ilike` : sql`like`;
  return sql<SqlBool>`(${sql.ref('directory_entry.user_group_id')} ${like} ${pattern} escape '\\' or ${sql.ref('directory_entry.name')} ${like} ${pattern} escape '\\')`;
}

/** The keys of the rows a search matches, up to `limit` + 1 (more: the caller says "1,000+"). */
export async function matchingKeys(
  database: ConsoleDatabase,
  query: MatchQuery,
  search: string,
  limit: number,
): Promise<RowKey[]> {
  const db = database.reads;
  if (database.dialect === 'postgres') {
    // pg_trgm's index for 3+ characters; shorter, a scan in the database's own process.
    const found = await liveRows(db, query)
      .where(containing(database, search))
      .select(rowKeyOf(database).as('row_key'))
      .limit(limit + 1)
      .execute();
    return found.map((row) => row.row_key);
  }
  // Characters, not UTF-16 units: the trigram index counts code points.
  if ([...search].length >= MIN_INDEXED_SEARCH) {
    // A trigram phrase: the characters as typed, quotes doubled. Collected from the index's side,
    // which stops at the limit.
    const phrase = `"${search.replaceAll('"', '""')}"`;
    const { rows } = await sql<{ rowid: number }>`select directory_entry.rowid as rowid
      from directory_search join directory_entry on directory_entry.rowid = directory_search.rowid
      where directory_search match ${phrase} and directory_entry.environment = ${query.environment}
      ${query.includeDeleted ? sql`` : sql`and directory_entry.deleted_at is null`}
      limit ${limit + 1}`.execute(db);
    return rows.map((row) => row.rowid);
  }
  return scanInChunks(database, query, search, limit);
}

/**
 * One or two characters, which no trigram holds: the environment's ids and names are read from
 * the id index, SCAN_CHUNK entries at a time, each chunk a statement of its own on the read pool
 * (under its time limit), the pool free for other reads between chunks.
 */
async function scanInChunks(
  database: ConsoleDatabase,
  query: MatchQuery,
  search: string,
  limit: number,
): Promise<RowKey[]> {
  const keys: RowKey[] = [];
  const pattern = `%${escapeLike(search)}%`;
  let after = '';
  for (;;) {
    // The live groups from an index that holds all a chunk reads (covering): a row is never read.
    const chunk = query.includeDeleted
      ? sql`select rowid as row_key, user_group_id, name from directory_entry
          where environment = ${query.environment} and user_group_id > ${after}
          order by user_group_id limit ${SCAN_CHUNK}`
      : sql`select rowid as row_key, user_group_id, name from directory_entry indexed by directory_entry_scan
          where environment = ${query.environment} and deleted_at is null and user_group_id > ${after}
          order by user_group_id limit ${SCAN_CHUNK}`;
    const { rows } = await sql<{
      last_id: string | null;
      hits: string | null;
    }>`select max(user_group_id) as last_id,
        json_group_array(row_key) filter (where user_group_id like ${pattern} escape '\\' or name like ${pattern} escape '\\') as hits
      from (${chunk}) as chunk`.execute(database.reads);
    const [summary] = rows;
    if (!summary?.last_id) return keys;
    keys.push(...(JSON.parse(summary.hits ?? '[]') as number[]));
    if (keys.length > limit) return keys.slice(0, limit + 1);
    after = summary.last_id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
