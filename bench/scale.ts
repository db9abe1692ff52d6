/**
 * `npm run bench -- scale` (and `scale-postgres`): the audit log and the directory at a year's size.
 * Rows are generated in bulk SQL (not through the API) into a throwaway console database, and each
 * request the console's pages and routes make is timed in-process through the same store functions
 * they call, at a small size and at ten times it, in one run: the growth ratio is the figure that
 * says whether a request depends on the table's size. The event loop's longest stall during the
 * heaviest requests says what every other request (health, sign-in) waited at worst.
 *
 * Sizes: BENCH_SCALE_AUDIT (default 1,000,000: measured at it and at a tenth) and
 * BENCH_SCALE_GROUPS (default 1,000,000 and a tenth). The issue's figures are at 10M audit rows:
 * BENCH_SCALE_AUDIT=10000000.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { type AuditFilters, parseAuditFilters } from '@/lib/audit/filters';
import { listAuditItems } from '@/lib/audit/listing';
import { migrateAuditLog } from '@/lib/audit/schema';
import { exportAuditRows, listAuditEvents } from '@/lib/audit/store';
import type { ConsoleDatabase, ConsoleDialect } from '@/lib/db/console-database';
import { migrateDirectory } from '@/lib/directory/schema';
import { type DirectoryQuery, searchDirectory } from '@/lib/directory/search';
import { findDirectoryEntry } from '@/lib/directory/store';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { identifyToken } from '@/lib/tokens/identify';
import { groupWords } from './directory';

const AUDIT_ROWS = Number(process.env.BENCH_SCALE_AUDIT ?? 1_000_000);
const GROUPS = Number(process.env.BENCH_SCALE_GROUPS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 40);
/** One operator in fifty, one action in ten, a bulk job's 1,000 rows in every 100,000 entries. */
const OPERATORS = 50;

const GROWTH_FLOOR_MS = 5;

export const SCALE_GOALS = { auditPageP95Ms: 300, apiP95Ms: 100, growth: 1.5, healthP95Ms: 100 } as const;

interface Figure {
  request: string;
  small: { p50Ms: number; p95Ms: number };
  large: { p50Ms: number; p95Ms: number };
  growth: number;
  goalP95Ms: number;
  withinGoal: boolean;
}

export interface ScaleBench {
  dialect: ConsoleDialect;
  auditRows: [number, number];
  groups: [number, number];
  figures: Figure[];
  /** The event loop's longest stall while the heaviest requests ran, at the large size. */
  longestStallMs: number;
  exportPeakRssMb: { rows: number; beforeMb: number; peakMb: number };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2));
}

async function time(run: () => Promise<unknown>): Promise<{ p50Ms: number; p95Ms: number }> {
  await run();
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

/** Audit rows `from`..`to` (1-based), a year back from now, three seconds apart at 10M. */
async function loadAudit(database: ConsoleDatabase, from: number, to: number): Promise<void> {
  const { db, dialect } = database;
  const start = Date.parse('2025-11-27T00:00:00Z') / 1000;
  const step = 3;
  if (dialect === 'sqlite') {
    for (let first = from; first <= to; first += 500_000) {
      const last = Math.min(to, first + 499_999);
      await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
        insert into audit_event (at, operator_id, operator_email, action, environment, user_group_id,
          user_group_name, outcome, request_id, token_fingerprint, previous_token_fingerprint, detail)
        select strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(start)} + i * ${sql.lit(step)}, 'unixepoch'),
          'op-' || (i % ${sql.lit(OPERATORS)}), 'person' || (i % ${sql.lit(OPERATORS)}) || '@example.com',
          case i % 10 when 0 then 'rotate' when 1 then 'delete' when 2 then 'sign-in' when 3 then 'show-token'
            when 4 then 'audit.read' when 5 then 'token.identify' else 'get-or-create' end,
          case when i % 10 = 2 then null when i % 5 = 0 then 'Testing' else 'Customer' end,
          case when i % 10 = 2 then null else 'group-' || (i % ${sql.lit(GROUPS)}) end,
          'Group ' || (i % ${sql.lit(GROUPS)}),
          'success',
          case when i % 100000 < 1000 then 'job-' || (i / 100000) else 'req-' || i end,
          substr(hex(randomblob(6)), 1, 12), null, null
        from n`.execute(db);
    }
    return;
  }
  await sql`insert into audit_event (at, operator_id, operator_email, action, environment, user_group_id,
      user_group_name, outcome, request_id, token_fingerprint, previous_token_fingerprint, detail)
    select to_char(to_timestamp(${sql.lit(start)} + i * ${sql.lit(step)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'op-' || (i % ${sql.lit(OPERATORS)}), 'person' || (i % ${sql.lit(OPERATORS)}) || '@example.com',
      case i % 10 when 0 then 'rotate' when 1 then 'delete' when 2 then 'sign-in' when 3 then 'show-token'
        when 4 then 'audit.read' when 5 then 'token.identify' else 'get-or-create' end,
      case when i % 10 = 2 then null when i % 5 = 0 then 'Testing' else 'Customer' end,
      case when i % 10 = 2 then null else 'group-' || (i % ${sql.lit(GROUPS)}) end,
      'Group ' || (i % ${sql.lit(GROUPS)}), 'success',
      case when i % 100000 < 1000 then 'job-' || (i / 100000) else 'req-' || i end,
      substr(md5(i::text), 1, 12), null, null
    from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(db);
  await sql`analyze audit_event`.execute(db);
}

/**
 * Groups `from`..`to`: ids like `acme-2n9c-12345`, names like `Acme 12345 Ltd`, one in twenty
 * (`wonka`'s and `tyrell`'s…) matching a term; one in twenty deleted.
 */
async function loadDirectory(database: ConsoleDatabase, from: number, to: number): Promise<void> {
  const { db, dialect } = database;
  const wordOf = (i: string) =>
    sql.raw(
      `(case ${i} % 10 ${groupWords.map((word, index) => `when ${index} then '${word}'`).join(' ')} end)`,
    );
  const at = "'2026-01-01T00:00:00.000Z'";
  if (dialect === 'sqlite') {
    for (let first = from; first <= to; first += 250_000) {
      const last = Math.min(to, first + 249_999);
      await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
        insert into directory_entry (environment, user_group_id, name, team_id, properties, mapping,
          token_fingerprint, created_at, created_by, updated_at, updated_by, deleted_at, deleted_by)
        select case when i % 5 = 0 then 'Testing' else 'Customer' end,
          ${wordOf('i')} || '-' || i, upper(substr(${wordOf('i')}, 1, 1)) || substr(${wordOf('i')}, 2) || ' ' || i || ' Ltd',
          i, '{"plan":"pro"}', null, substr(hex(randomblob(6)), 1, 12),
          ${sql.raw(at)}, 'person1@example.com',
          strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i * 7, 'unixepoch'), 'person1@example.com',
          case when i % 20 = 7 then ${sql.raw(at)} end, case when i % 20 = 7 then 'person1@example.com' end
        from n`.execute(db);
    }
    return;
  }
  await sql`insert into directory_entry (environment, user_group_id, name, team_id, properties, mapping,
      token_fingerprint, created_at, created_by, updated_at, updated_by, deleted_at, deleted_by)
    select case when i % 5 = 0 then 'Testing' else 'Customer' end,
      ${wordOf('i')} || '-' || i, initcap(${wordOf('i')}) || ' ' || i || ' Ltd',
      i, '{"plan":"pro"}', null, substr(md5(i::text), 1, 12), ${sql.raw(at)}, 'person1@example.com',
      to_char(to_timestamp(1767225600 + i * 7) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'person1@example.com',
      case when i % 20 = 7 then ${sql.raw(at)} end, case when i % 20 = 7 then 'person1@example.com' end
    from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(db);
  await sql`analyze directory_entry`.execute(db);
}

const filters = (query: string): AuditFilters => {
  const parsed = parseAuditFilters(new URLSearchParams(query));
  if (!parsed.success) throw new Error(`bench filters ${query}: ${JSON.stringify(parsed.fields)}`);
  return parsed.filters;
};

interface Request {
  name: string;
  goalP95Ms: number;
  run: (database: ConsoleDatabase) => Promise<unknown>;
  /** The heaviest: run again while the event loop is watched. */
  heavy?: boolean;
}

const customer = (query: Partial<DirectoryQuery>): DirectoryQuery => ({ environment: 'Customer', ...query });
const deepCursor = async (database: ConsoleDatabase) => {
  // "Page 100" of the JSON route: the cursor 99 pages of 50 down.
  let before: number | undefined;
  for (let page = 1; page < 100; page++) {
    const answer = await listAuditEvents(database, { ...filters(''), before });
    before = answer.nextBefore ?? undefined;
  }
  return before;
};

const auditRequests = (cursor100: () => number | undefined): Request[] => [
  { name: '/audit page, first', goalP95Ms: 300, run: (d) => listAuditItems(d, filters('')) },
  {
    name: '/audit page, by person',
    goalP95Ms: 300,
    heavy: true,
    run: (d) => listAuditItems(d, filters('operator=person7')),
  },
  {
    name: '/audit page, action = rotate',
    goalP95Ms: 300,
    heavy: true,
    run: (d) => listAuditItems(d, filters('action=rotate')),
  },
  {
    name: '/audit page, part of a group id',
    goalP95Ms: 300,
    heavy: true,
    run: (d) => listAuditItems(d, filters('group=roup-4242')),
  },
  {
    name: '/audit page, environment',
    goalP95Ms: 300,
    run: (d) => listAuditItems(d, filters('environment=Testing')),
  },
  {
    name: '/audit page, person and action',
    goalP95Ms: 300,
    heavy: true,
    run: (d) => listAuditItems(d, filters('operator=person7&action=rotate')),
  },
  {
    name: '/audit page, a day',
    goalP95Ms: 300,
    run: (d) => listAuditItems(d, filters('from=2026-06-01&to=2026-06-01')),
  },
  {
    name: '/api/audit by person',
    goalP95Ms: 100,
    run: (d) => listAuditEvents(d, filters('operator=person7')),
  },
  {
    name: '/api/audit page 100',
    goalP95Ms: 100,
    run: (d) => listAuditEvents(d, { ...filters(''), before: cursor100() }),
  },
  {
    name: 'a group page history',
    goalP95Ms: 100,
    run: (d) =>
      listAuditEvents(d, {
        ...filters('group=group-4242&environment=Customer'),
        exactGroup: true,
        reads: true,
      }),
  },
];

const directoryRequests: Request[] = [
  { name: 'directory, first page', goalP95Ms: 100, run: (d) => searchDirectory(d, customer({})) },
  {
    name: 'directory, part of a name',
    goalP95Ms: 100,
    run: (d) => searchDirectory(d, customer({ search: 'Acme 4242' })),
  },
  {
    name: 'directory, term matching 1 in 10',
    goalP95Ms: 100,
    heavy: true,
    run: (d) => searchDirectory(d, customer({ search: 'wonka' })),
  },
  {
    name: 'directory, 2 letters, no match',
    goalP95Ms: 100,
    heavy: true,
    run: (d) => searchDirectory(d, customer({ search: 'qz' })),
  },
  {
    name: 'directory, part of an id',
    goalP95Ms: 100,
    run: (d) => searchDirectory(d, customer({ search: 'acme-424202' })),
  },
  {
    name: 'a group by its id',
    goalP95Ms: 100,
    run: (d) => findDirectoryEntry(d.db, 'Customer', 'acme-4242'),
  },
  { name: 'identify a token', goalP95Ms: 100, run: (d) => identifyToken(d.db, 'ab12'.repeat(16)) },
];

async function measureAll(database: ConsoleDatabase, requests: Request[]) {
  const figures = new Map<string, { p50Ms: number; p95Ms: number }>();
  for (const request of requests) figures.set(request.name, await time(() => request.run(database)));
  return figures;
}

/**
 * The longest the event loop stood still while the heavy requests ran back to back: a 1 ms ticker
 * notes the widest gap between its ticks (SQLite's driver is synchronous: a query's whole run is
 * a gap, during which a health check or a sign-in waits).
 */
async function longestStall(database: ConsoleDatabase, requests: Request[]): Promise<number> {
  let last = performance.now();
  let widest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last);
    last = now;
  }, 1);
  for (const request of requests.filter((r) => r.heavy))
    for (let i = 0; i < 5; i++) {
      await request.run(database);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  clearInterval(ticker);
  return Number(widest.toFixed(1));
}

async function exportMemory(database: ConsoleDatabase, rows: number) {
  globalThis.gc?.();
  const beforeMb = process.memoryUsage().rss / 2 ** 20;
  let peak = beforeMb;
  let count = 0;
  for await (const batch of exportAuditRows(database, filters('reads=include'), rows)) {
    count += batch.length;
    peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20);
  }
  return { rows: count, beforeMb: Math.round(beforeMb), peakMb: Math.round(peak) };
}

export async function benchScale(dialect: ConsoleDialect = 'sqlite'): Promise<ScaleBench> {
  const database = await openTestConsoleDatabase('bench-scale', dialect);
  try {
    await migrateAuditLog(database);
    await migrateDirectory(database);
    // The operators, as better-auth's table holds them (the columns a person filter reads).
    await sql`create table "user" (id text primary key, email text not null)`.execute(database.db);
    await database.db
      .insertInto('user')
      .values(
        Array.from({ length: OPERATORS }, (_, i) => ({
          id: `op-${i}`,
          email: `person${i}@example.com`,
        })) as never,
      )
      .execute();
    const small = { audit: Math.round(AUDIT_ROWS / 10), groups: Math.round(GROUPS / 10) };
    let cursor: number | undefined;
    const audit = auditRequests(() => cursor);
    const requests = [...audit, ...directoryRequests];
    console.info(`scale: loading ${small.audit} audit rows and ${small.groups} groups (${dialect})`);
    await loadAudit(database, 1, small.audit);
    await loadDirectory(database, 1, small.groups);
    cursor = await deepCursor(database);
    const atSmall = await measureAll(database, requests);
    console.info(`scale: growing to ${AUDIT_ROWS} audit rows and ${GROUPS} groups`);
    await loadAudit(database, small.audit + 1, AUDIT_ROWS);
    await loadDirectory(database, small.groups + 1, GROUPS);
    cursor = await deepCursor(database);
    const atLarge = await measureAll(database, requests);
    const figures = requests.map((request): Figure => {
      const smallFigure = atSmall.get(request.name) ?? { p50Ms: 0, p95Ms: 0 };
      const largeFigure = atLarge.get(request.name) ?? { p50Ms: 0, p95Ms: 0 };
      // Under 5 ms a ratio measures the machine's noise (a GC, another process), not the table's
      // size: growth is counted from 5 ms.
      const growth = Number(
        (Math.max(GROWTH_FLOOR_MS, largeFigure.p95Ms) / Math.max(GROWTH_FLOOR_MS, smallFigure.p95Ms)).toFixed(
          2,
        ),
      );
      return {
        request: request.name,
        small: smallFigure,
        large: largeFigure,
        growth,
        goalP95Ms: request.goalP95Ms,
        withinGoal: largeFigure.p95Ms < request.goalP95Ms && growth <= SCALE_GOALS.growth,
      };
    });
    return {
      dialect,
      auditRows: [small.audit, AUDIT_ROWS],
      groups: [small.groups, GROUPS],
      figures,
      longestStallMs: await longestStall(database, requests),
      exportPeakRssMb: await exportMemory(database, 100_000),
    };
  } finally {
    await database.dispose();
  }
}
