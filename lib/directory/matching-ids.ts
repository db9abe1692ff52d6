/**
 * The ids a part of an id or a name matches, for what acts on them rather than shows a page: a
 * rotation of every match of a search, and the audit log's filter by part of a group's id.
 */
import { sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { containing, idContaining, liveRows, matchingKeys, withNoIndexOnly } from './matching';
import { rowsByKey } from './rows-by-key';
import { directoryDb } from './schema';
import { isShortSearch } from './short-grams';

/**
 * The ids of the live groups a search matches (part of an id or a name, as the directory's search),
 * in id order, at most `limit`: a rotation of "all matches" is made from the search itself. The
 * matches are looked up in the search's index (trigrams, or characters and pairs under three), so a
 * part few groups hold costs the same at any size; only when more than `limit` match are the first
 * `limit` in id order taken (walked in id order; on PostgreSQL, three characters or more, its
 * matches sorted).
 */
export async function directoryMatchingIds(
  database: ConsoleDatabase,
  environment: Environment,
  search: string,
  limit: number,
): Promise<string[]> {
  const part = search.replaceAll('\0', '').trim();
  if (!part) return [];
  const keys = await matchingKeys(database, { environment }, part, limit);
  if (keys.length <= limit) {
    const rows = await rowsByKey(database, environment, keys);
    return rows.map((row) => row.user_group_id).sort(byteOrder);
  }
  const matches = liveRows(database.reads, { environment }).where(containing(database, part));
  if (database.dialect === 'postgres' && !isShortSearch(part)) {
    // Every match read first, from the trigram index or the table (never a walk of the ids' index:
    // see IN_NO_INDEX), then the first `limit` in id order: a part many ids begin with sits 650,000
    // entries into that index at a million groups. One or two characters have no trigram to look
    // up: their matches come soon on the walk, which stops at the limit.
    const { rows } = await sql<{ user_group_id: string }>`with matched as materialized (
        ${matches.select(withNoIndexOnly('directory_entry.user_group_id'))})
      select user_group_id from matched order by user_group_id limit ${limit}`.execute(database.reads);
    return rows.map((row) => row.user_group_id);
  }
  const rows = await matches
    .select('directory_entry.user_group_id')
    .orderBy('directory_entry.user_group_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_group_id);
}

/** As the databases order the ids (SQLite's BINARY, PostgreSQL's "C"): by code unit, not by locale. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The ids, in any environment and deleted ones too, that hold `part` (any case): how the audit log
 * finds a group's entries by part of its id without reading the log. At most `limit`; null when
 * more groups match (the part is too common to list). Under three characters the trigram index
 * cannot answer: none (the caller takes the part as a whole id).
 */
export async function directoryIdsContaining(
  database: ConsoleDatabase,
  part: string,
  limit: number,
): Promise<string[] | null> {
  const search = part.replaceAll('\0', '').trim();
  if (isShortSearch(search)) return [];
  const db = database.reads;
  const rows =
    database.dialect === 'sqlite'
      ? (
          await sql<{ user_group_id: string }>`select directory_entry.user_group_id
            from directory_search join directory_entry on directory_entry.rowid = directory_search.rowid
            where directory_search match ${`{user_group_id} : "${search.replaceAll('"', '""')}"`}
            limit ${limit + 1}`.execute(db)
        ).rows
      : await postgresIdsContainingQuery(database, search, limit).execute();
  if (rows.length > limit) return null;
  return [...new Set(rows.map((row) => row.user_group_id))];
}

/** PostgreSQL's query for directoryIdsContaining, on the trigram index or the table (IN_NO_INDEX says why). */
export function postgresIdsContainingQuery(database: ConsoleDatabase, search: string, limit: number) {
  return directoryDb(database.reads)
    .selectFrom('directory_entry')
    .select(withNoIndexOnly('directory_entry.user_group_id'))
    .where(idContaining(database, search))
    .limit(limit + 1);
}
