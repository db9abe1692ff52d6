/**
 * The index that answers a search of one or two characters, which no trigram holds: each group's
 * distinct characters and pairs of characters, of its id and its name, lower-cased as the search
 * compares them (ASCII only, as SQLite's LIKE and PostgreSQL's ILIKE on the "C" columns do). A part
 * is then looked up, never scanned for: a part nothing holds costs the same at any size.
 * - SQLite: an FTS5 table of one "document" per group, its grams written in hex (one token each
 *   for the `ascii` tokenizer, whatever the characters), kept by triggers in the writer's transaction.
 * - PostgreSQL: a GIN index over directory_grams(id, name), a text[], kept by PostgreSQL itself.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** Fewer characters than a trigram: searched in this index. */
const MIN_INDEXED_SEARCH = 3;

export const isShortSearch = (search: string) => [...search].length < MIN_INDEXED_SEARCH;

/**
 * SQLite: the hex grams of one row as one space-separated document. `row` is `new` in a trigger or
 * `directory_entry` in the backfill. The positions come from json_each over an array of as many
 * zeros as the text has characters (triggers may not use a recursive WITH).
 */
function sqliteGramDocument(row: 'new' | 'directory_entry') {
  return sql.raw(`(select group_concat(gram, ' ') from (
    select distinct hex(substr(t.v, p.key + 1, w.n)) as gram
    from (select lower(${row}.user_group_id) as v union all select lower(${row}.name)) as t
      join (select 1 as n union all select 2) as w
      join json_each('[' || ltrim(replace(hex(zeroblob(length(t.v))), '00', ',0'), ',') || ']') as p
    where t.v is not null))`);
}

/** SQLite: the FTS5 table (rowid: directory_entry's) and the triggers that keep it. */
export const sqliteShortIndex = [
  sql`create virtual table directory_short using fts5(grams, content='', contentless_delete=1, detail=none, tokenize='ascii')`,
  sql`insert into directory_short (rowid, grams) select rowid, ${sqliteGramDocument('directory_entry')} from directory_entry`,
  sql`create trigger directory_short_insert after insert on directory_entry begin
    insert into directory_short (rowid, grams) values (new.rowid, ${sqliteGramDocument('new')});
  end`,
  sql`create trigger directory_short_delete after delete on directory_entry begin
    delete from directory_short where rowid = old.rowid;
  end`,
  sql`create trigger directory_short_update after update of user_group_id, name on directory_entry begin
    delete from directory_short where rowid = old.rowid;
    insert into directory_short (rowid, grams) values (new.rowid, ${sqliteGramDocument('new')});
  end`,
];

/**
 * PostgreSQL: the grams as a text[] (immutable, so an index may hold it), and its GIN index. The
 * positions and lengths are lateral series; lower() under "C" folds ASCII only, as ILIKE on the
 * "C" columns does.
 */
export const postgresShortIndex = [
  sql`create function directory_grams(id text, name text) returns text[] language sql immutable parallel safe as $$
    select coalesce(array_agg(distinct substr(t, i, n)), '{}')
    from unnest(array[lower(id collate "C"), lower(name collate "C")]) as t,
      generate_series(1, 2) as n,
      generate_series(1, length(t) - n + 1) as i
    where t is not null
  $$`,
  sql`create index directory_entry_short on directory_entry using gin (directory_grams(user_group_id, name))`,
];

/** PostgreSQL: the rows whose id or name holds this one- or two-character part (any ASCII case). */
export const postgresHoldsShort = (search: string, table = 'directory_entry'): RawBuilder<SqlBool> =>
  sql<SqlBool>`directory_grams(${sql.ref(`${table}.user_group_id`)}, ${sql.ref(`${table}.name`)}) @> array[lower(${search}::text collate "C")]`;

/** SQLite: the FTS query that finds the rows holding this one- or two-character part. */
export const sqliteShortMatch = (search: string) => sql`hex(lower(${search}))`;
