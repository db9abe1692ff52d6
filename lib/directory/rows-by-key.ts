/** The directory's rows by their keys (rowids on SQLite, ids on PostgreSQL): what a search's page shows. */
import { type SqlBool, sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { type RowKey, rowKeyOf } from './matching';
import { directoryDb } from './schema';

/** The rows of these keys, in no order; none for none, without a query. */
export async function rowsByKey(database: ConsoleDatabase, environment: Environment, keys: RowKey[]) {
  return keys.length === 0 ? [] : await rowsByKeyQuery(database, environment, keys).execute();
}

/** The rows of these keys (rowids on SQLite, ids on PostgreSQL), in no order. */
export function rowsByKeyQuery(database: ConsoleDatabase, environment: Environment, keys: RowKey[]) {
  const rows = directoryDb(database.reads)
    .selectFrom('directory_entry')
    .selectAll()
    .select(rowKeyOf(database).as('row_key'));
  if (database.dialect === 'postgres')
    // Each key found by a range of one (`>=` and `<=`), which the primary key answers and the trigram
    // index on the id cannot: that index also answers `=`, and PostgreSQL took it, one bitmap of
    // thousands of rows per id (at 10,000 groups: 4.2 s for a search's ~900 ids, 165 ms for a page's
    // 25; found by the scale bench, held by lib/directory/plans.test.ts).
    return rows
      .innerJoin(sql<{ wanted: string }>`unnest(${keys.map(String)}::text[])`.as('wanted'), (join) =>
        join
          .onRef('directory_entry.user_group_id', '>=', 'wanted.wanted')
          .onRef('directory_entry.user_group_id', '<=', 'wanted.wanted'),
      )
      .where('directory_entry.environment', '=', environment);
  // SQLite's rowid is unique in the table, and naming the environment there leads its planner to walk
  // the environment instead.
  return rows.where(sql<SqlBool>`${rowKeyOf(database)} in (${sql.join(keys)})`);
}
