/**
 * Which rows of the directory a search matches: SQLite's FTS5 trigram table for three characters
 * or more, its table of characters and pairs for fewer (./short-grams.ts); on PostgreSQL ILIKE over
 * pg_trgm indexes, or the GIN index of characters and pairs. lib/directory/search.ts pages and sorts them.
 */
import { type SqlBool, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import type { Environment } from '@/lib/environments';
import { directoryDb } from './schema';
import { isShortSearch, postgresHoldsShort, sqliteShortMatch } from './short-grams';

/** What a match depends on: the environment, and whether deleted groups count. */
export interface MatchQuery {
  environment: Environment;
  includeDeleted?: boolean;
}

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

/** The LIKE pattern of a part, its wildcards taken literally. */
const partPattern = (search: string) => `%${escapeLike(search)}%`;
/** PostgreSQL's ILIKE ignores case as SQLite's LIKE does. */
const likeOf = (database: ConsoleDatabase) => (database.dialect === 'postgres' ? sql`ilike` : sql`like`);

/** A LIKE of part of the id or the name, wildcards in the search taken literally. */
export function containing(database: ConsoleDatabase, search: string, table = 'directory_entry') {
  const pattern = partPattern(search);
  // PostgreSQL: pg_trgm's GIN indexes answer ILIKE. Under three characters pg_trgm has no trigram
  // to look up and reads its whole index (a second at a million groups): the columns are then
  // compared as an expression that no index holds, each row the index of characters and pairs found
  // (postgresHoldsShort) checked.
  const unindexed = database.dialect === 'postgres' && isShortSearch(search);
  const column = (name: string) =>
    unindexed ? sql`(${sql.ref(`${table}.${name}`)} || '')` : sql.ref(`${table}.${name}`);
  const like = likeOf(database);
  // The name first: a term many groups hold is most often in their names (a word of a company's),
  // and OR stops at the first that holds. Rechecking a PostgreSQL bitmap of 50,000 `heritage` names,
  // one comparison a row in place of two took a page of all its matches from 50 ms to 42 (p50); a
  // term both hold (`wonka`) costs the same either way.
  return sql<SqlBool>`(${column('name')} ${like} ${pattern} escape '\\' or ${column('user_group_id')} ${like} ${pattern} escape '\\')`;
}

/** A LIKE of part of the id alone (three characters or more: pg_trgm's index answers it). */
export const idContaining = (database: ConsoleDatabase, search: string) =>
  sql<SqlBool>`directory_entry.user_group_id ${likeOf(database)} ${partPattern(search)} escape '\\'`;

/**
 * The FTS5 query (table and MATCH term) that holds a search's rows on SQLite, the trigram table
 * (the characters as typed, quotes doubled) or, under three characters, the table of characters and pairs.
 */
export function sqliteSearchIndex(search: string) {
  return isShortSearch(search)
    ? { table: sql.raw('directory_short'), term: sqliteShortMatch(search) }
    : { table: sql.raw('directory_search'), term: sql`${`"${search.replaceAll('"', '""')}"`}` };
}

/**
 * How many rows SQLite's index holds for a search, in any environment and deleted ones too, counted
 * up to `bound` + 1: the index alone, no row read (1.2 ms for 5,000).
 */
export async function sqliteIndexedCount(database: ConsoleDatabase, search: string, bound: number) {
  const { table, term } = sqliteSearchIndex(search);
  const { rows } = await sql<{ found: number }>`select count(*) as found from (
    select rowid from ${table} where ${table} match ${term} limit ${bound + 1})`.execute(database.reads);
  return Number(rows[0]?.found ?? 0);
}

/**
 * How many rows the directory holds, as PostgreSQL's statistics last counted them (ANALYZE, VACUUM,
 * autovacuum): a catalog read, no table's. Null on SQLite, which keeps none, and before the first count.
 */
export async function directoryRowsEstimate(database: ConsoleDatabase): Promise<number | null> {
  if (database.dialect !== 'postgres') return null;
  const { rows } = await sql<{ rows: number }>`select reltuples as rows from pg_class
    where oid = 'directory_entry'::regclass`.execute(database.reads);
  const counted = Number(rows[0]?.rows ?? -1);
  return counted < 0 ? null : counted;
}

/** The keys of the rows a search matches, up to `limit` + 1 (more: the caller says "1,000+"). */
export async function matchingKeys(
  database: ConsoleDatabase,
  query: MatchQuery,
  search: string,
  limit: number,
): Promise<RowKey[]> {
  if (database.dialect === 'postgres') {
    const found = await postgresMatchingQuery(database, query, search, limit).execute();
    return found.map((row) => row.row_key);
  }
  // Collected from the index's side, which stops at the limit.
  const { table, term } = sqliteSearchIndex(search);
  const { rows } = await sql<{ rowid: number }>`select directory_entry.rowid as rowid
    from ${table} join directory_entry on directory_entry.rowid = ${table}.rowid
    where ${table} match ${term} and directory_entry.environment = ${query.environment}
    ${query.includeDeleted ? sql`` : sql`and directory_entry.deleted_at is null`}
    limit ${limit + 1}`.execute(database.reads);
  return rows.map((row) => row.rowid);
}

/**
 * A column no index holds, read beside a search's ids on PostgreSQL so that no index alone answers
 * the search. Once VACUUM has marked a table's pages all-visible, PostgreSQL otherwise walks an index
 * that holds the ids (the primary key; the live ids with their names) and filters each entry: the ids
 * a part begins sit together in that order, so a late one (`wonka-…`) was 650,000 entries into the
 * walk, 180 ms at a million groups (plans.test.ts). Without that path it reads the trigram index
 * (a part few groups hold) or the table up to the limit (a part many hold).
 */
export const IN_NO_INDEX = 'directory_entry.team_id';

/** `columns` and IN_NO_INDEX: what a PostgreSQL search selects so that no index alone answers it. */
export const withNoIndexOnly = <C>(...columns: C[]) => [...columns, IN_NO_INDEX] as const;

/** PostgreSQL's query for matchingKeys: pg_trgm's index for 3+ characters, the index of characters and pairs for fewer. */
export function postgresMatchingQuery(
  database: ConsoleDatabase,
  query: MatchQuery,
  search: string,
  limit: number,
) {
  const rows = liveRows(database.reads, query).where(containing(database, search));
  return (isShortSearch(search) ? rows.where(postgresHoldsShort(search)) : rows)
    .select(withNoIndexOnly(rowKeyOf(database).as('row_key')))
    .limit(limit + 1);
}
