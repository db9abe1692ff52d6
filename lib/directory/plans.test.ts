/**
 * PostgreSQL only (`npm run test:postgres`): a search's matches are read by their ids without the
 * trigram index on the id. That index also answers `=`, and PostgreSQL chose it for a list of ~900
 * ids at 10,000 groups, where it took 4.2 s and the scale bench's searches hit the 5 s read limit,
 * and for a page's 25 ids (165 ms, the unsearched list's whole time).
 * Plans are asked for (EXPLAIN) on 10,000 groups, ANALYZEd as autovacuum would; and, VACUUMed as
 * autovacuum would, a part many ids begin with is not looked for by walking an index of the ids,
 * and every sort, either way, reads its index instead of sorting the groups, and the matches of a
 * search whose page the walk of that index did not find are sorted by themselves, that index unread.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase, testDialect } from '@/lib/testing/console-test-database';
import { IN_NO_INDEX, postgresMatchingQuery } from './matching';
import { postgresIdsContainingQuery } from './matching-ids';
import { rowsByKeyQuery } from './rows-by-key';
import { migrateDirectory } from './schema';
import { allMatchesSorted, type DirectoryQuery, directorySorts, inSortOrder } from './search';

type Database = Awaited<ReturnType<typeof openTestConsoleDatabase>>;
let database: Database;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

async function nodesRead(compiled: CompiledQuery): Promise<PlanNode[]> {
  const { rows } = await database.reads.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
    ...compiled,
    sql: `explain (format json) ${compiled.sql}`,
  });
  const plan = rows[0]?.['QUERY PLAN'][0].Plan;
  if (!plan) throw new Error('no plan');
  return nodesOf(plan);
}

const indexesRead = async (compiled: CompiledQuery) =>
  (await nodesRead(compiled)).flatMap((node) => node['Index Name'] ?? []);

describe.runIf(testDialect() === 'postgres')('a search’s matches read by id on PostgreSQL', () => {
  beforeAll(async () => {
    database = await openTestConsoleDatabase('directory-plans');
    await migrateDirectory(database);
    await sql`insert into directory_entry (environment, user_group_id, name, team_id, properties,
        token_fingerprint, created_at, created_by, updated_at, updated_by)
      select 'Customer', 'wonka-' || i, 'Wonka ' || i || ' Ltd', i, '{}', substr(md5(i::text), 1, 12),
        '2026-01-01T00:00:00.000Z', 'p@example.com', '2026-01-01T00:00:00.000Z', 'p@example.com'
      from generate_series(1, 10000) as i`.execute(database.db);
    await sql`analyze directory_entry`.execute(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it.each([
    ['a search’s', 900],
    ['a page’s', 25],
  ])('reads %s %i ids by the primary key, not the trigram index', async (_, count) => {
    const keys = Array.from({ length: count }, (_, at) => `wonka-${at * 10 + 1}`);
    const indexes = await indexesRead(rowsByKeyQuery(database, 'Customer', keys).compile());
    expect(indexes.filter((name) => name.startsWith('directory_entry_search'))).toEqual([]);
    expect(indexes).toContain('directory_entry_pk');
    // And it reads them: the rows, all of them, of this environment only.
    const rows = await rowsByKeyQuery(database, 'Customer', keys).execute();
    expect(rows.map((row) => row.user_group_id).sort()).toEqual([...keys].sort());
    expect(await rowsByKeyQuery(database, 'Testing', keys).execute()).toEqual([]);
  });
});

describe.runIf(testDialect() === 'postgres')('a search’s matches once VACUUM has run, on PostgreSQL', () => {
  const words = ['acme', 'bolt', 'cask', 'dune', 'echo', 'fern', 'gust', 'hale', 'iris', 'wonka'];
  beforeAll(async () => {
    database = await openTestConsoleDatabase('directory-plans-vacuumed');
    await migrateDirectory(database);
    // Ids made as people make them: a word and a number, so the ids a word begins sit together in
    // id order, `wonka-…` last; one row in ten of each word, in the table's order.
    await sql`insert into directory_entry (environment, user_group_id, name, team_id, properties,
        token_fingerprint, created_at, created_by, updated_at, updated_by)
      select 'Customer', (array[${sql.join(words)}])[i % 10 + 1] || '-' || i, 'Group ' || i, i, '{}',
        substr(md5(i::text), 1, 12), '2026-01-01T00:00:00.000Z', 'p@example.com',
        '2026-01-01T00:00:00.000Z', 'p@example.com'
      from generate_series(1, 200000) as i`.execute(database.db);
    // As autovacuum leaves a table: every page all-visible, so an index alone can answer a query.
    await sql`vacuum (analyze) directory_entry`.execute(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  /** Whether an index is walked with the search as its filter, entry after entry. */
  const walksAnIdIndex = async (compiled: CompiledQuery) =>
    (await nodesRead(compiled)).some(
      (node) => node['Node Type'].startsWith('Index') && (node.Filter ?? '').includes('~~*'),
    );

  it('keeps IN_NO_INDEX in no index, so that no index alone answers a search', async () => {
    const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
      where tablename = 'directory_entry' and indexdef like ${`%${IN_NO_INDEX.split('.')[1]}%`}`.execute(
      database.db,
    );
    expect(rows).toEqual([]);
  });

  it('finds a part many ids begin with without walking an index of the ids to where they sit', async () => {
    const search = postgresMatchingQuery(database, { environment: 'Customer' }, 'wonka', 1_000);
    expect(await walksAnIdIndex(search.compile())).toBe(false);
    expect((await search.execute()).length).toBe(1_001);
    const ids = postgresIdsContainingQuery(database, 'wonka', 100);
    expect(await walksAnIdIndex(ids.compile())).toBe(false);
    expect((await ids.execute()).every((row) => row.user_group_id.startsWith('wonka-'))).toBe(true);
  });

  const sortings: DirectoryQuery[] = [
    { environment: 'Customer' },
    ...directorySorts.flatMap((sort) =>
      [false, true].map((descending) => ({ environment: 'Customer' as const, sort, descending })),
    ),
  ];
  it.each(sortings)(
    'reads a page sorted $sort (descending: $descending) from its index, sorting nothing',
    async (query) => {
      const page = inSortOrder(database, query).select('directory_entry.user_group_id').limit(25);
      const nodes = await nodesRead(page.compile());
      expect(
        nodes.filter((node) => node['Node Type'].includes('Sort')).map((node) => node['Node Type']),
      ).toEqual([]);
      expect(nodes.some((node) => (node['Index Name'] ?? '').startsWith('directory_entry_live_'))).toBe(true);
      expect(await page.execute()).toHaveLength(25);
    },
  );

  it.each(sortings)(
    'sorts every match of a search sorted $sort (descending: $descending) without walking the sort’s index',
    async (query) => {
      const page = allMatchesSorted(database, query, 'wonka', { pageSize: 25, offset: 0 }).compile(
        database.reads,
      );
      const nodes = await nodesRead(page);
      expect(
        nodes.flatMap((node) => node['Index Name'] ?? []).filter((name) => name.includes('_live_')),
      ).toEqual([]);
      expect(nodes.some((node) => node['Node Type'] === 'Sort')).toBe(true);
      const { rows } = await database.reads.executeQuery<{ row_key: string }>(page);
      expect(rows).toHaveLength(25);
      expect(rows.every((row) => row.row_key.startsWith('wonka-'))).toBe(true);
    },
  );
});
