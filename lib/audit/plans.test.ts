/**
 * PostgreSQL only (`npm run test:postgres`): the by-person and the one-day page read their indexes,
 * whatever the table's size. PostgreSQL plans by statistics, so the plans are asked for (EXPLAIN)
 * on a small and on a larger generated log, each VACUUMed and ANALYZEd as autovacuum would: a plan that walks
 * the primary key backwards and filters (or scans the table) reads more as the log grows.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase, testDialect } from '@/lib/testing/console-test-database';
import { parseAuditFilters } from './filters';
import { matchesNothing, resolveAuditFilters } from './query';
import { migrateAuditLog } from './schema';
import { auditPageQuery, countQuery } from './store';

type Database = Awaited<ReturnType<typeof openTestConsoleDatabase>>;
let database: Database;

const OPERATORS = 50;

/** Entries `from`..`to`, 30 s apart from 2026-01-01, one person in fifty, ten actions. */
async function load(from: number, to: number) {
  await sql`insert into audit_event (at, operator_id, operator_email, action, environment, user_group_id,
      user_group_name, outcome, request_id)
    select to_char(to_timestamp(1767225600 + i * 30) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'op-' || (i % ${sql.lit(OPERATORS)}), 'person' || (i % ${sql.lit(OPERATORS)}) || '@example.com',
      case i % 10 when 0 then 'rotate' when 1 then 'delete' when 2 then 'sign-in' when 3 then 'show-token'
        else 'get-or-create' end,
      'Customer', 'group-' || (i % 5000), 'Group', 'success', 'req-' || i
    from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(database.db);
  await sql`vacuum (analyze) audit_event`.execute(database.db);
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

async function planOf(compiled: CompiledQuery) {
  const { rows } = await database.reads.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
    ...compiled,
    sql: `explain (format json) ${compiled.sql}`,
  });
  const plan = rows[0]?.['QUERY PLAN'][0].Plan;
  if (!plan) throw new Error('no plan');
  return nodesOf(plan);
}

async function plansFor(query: string) {
  const parsed = parseAuditFilters(new URLSearchParams(query));
  if (!parsed.success) throw new Error(query);
  const where = await resolveAuditFilters(database, parsed.filters);
  if (where === matchesNothing) throw new Error(`${query} matches nothing`);
  return {
    page: await planOf(auditPageQuery(database, where, {}).compile()),
    count: await planOf(countQuery(database, where).compile()),
  };
}

const describePostgres = describe.runIf(testDialect() === 'postgres');

describePostgres('the audit pages on PostgreSQL read their indexes, small log or large', () => {
  beforeAll(async () => {
    database = await openTestConsoleDatabase('audit-plans');
    await migrateAuditLog(database);
    await sql`create table "user" (id text primary key, email text not null)`.execute(database.db);
    await sql`insert into "user" select 'op-' || i, 'person' || i || '@example.com' from generate_series(0, ${OPERATORS - 1}) as i`.execute(
      database.db,
    );
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const indexesOf = (nodes: PlanNode[]) => nodes.flatMap((node) => node['Index Name'] ?? []);
  const kindsOf = (nodes: PlanNode[]) => nodes.map((node) => node['Node Type']);

  it.each([
    ['small', 1, 20_000],
    ['larger', 20_001, 400_000],
  ])(
    'on a %s log',
    async (_size, from, to) => {
      await load(from, to);
      // A person: their own index, newest first; never the primary key walked past everyone else's.
      // Once VACUUM has run, the count reads (operator_email, action, id) alone, actions and all.
      const person = await plansFor('operator=person7');
      expect(indexesOf(person.page)).toContain('audit_event_operator_email_id');
      for (const plan of [person.page, person.count]) {
        expect(indexesOf(plan).some((index) => index.startsWith('audit_event_operator_'))).toBe(true);
        expect(indexesOf(plan)).not.toContain('audit_event_pkey');
        expect(kindsOf(plan)).not.toContain('Seq Scan');
      }
      expect(kindsOf(person.page)).not.toContain('Sort');
      // A day: the ids of the day on the primary key, newest first, never the whole day read and sorted.
      const day = await plansFor('from=2026-01-03&to=2026-01-03');
      for (const plan of [day.page, day.count]) {
        const walk = plan.find((node) => node['Index Name'] === 'audit_event_pkey');
        expect(walk?.['Node Type']).toBe('Index Scan');
        expect(walk?.['Index Cond']).toMatch(/id >= \d+\) AND \(id <= \d+/);
        expect(kindsOf(plan)).not.toContain('Sort');
        expect(kindsOf(plan)).not.toContain('Seq Scan');
        expect(indexesOf(plan)).not.toContain('audit_event_at');
      }
    },
    300_000,
  );
});
