/**
 * `npm run bench [-- service bulk console pages directory]`: loopback only, bounded in time. Prints a table
 * per section and writes bench/results.json. Every figure is a ratio against a baseline measured
 * in the same run, because these machines are shared and noisy.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { benchBulk } from './bulk';
import { benchConsole } from './console';
import { benchDirectory } from './directory';
import type { LoadResult } from './load';
import { benchPageWeight } from './page-weight';
import { benchService } from './service';

const sections = process.argv.slice(2);
const wanted = (name: string) => sections.length === 0 || sections.includes(name);
const results: Record<string, unknown> = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version },
};

if (wanted('service')) {
  const service = await benchService();
  results.service = service;
  console.table(
    service.map((row) => ({
      scenario: row.scenario,
      'req/s': row.service.requestsPerSecond,
      'bare req/s': row.baseline.requestsPerSecond,
      ratio: row.ratio,
      'p50 ms': row.service.p50Ms,
      'p99 ms': row.service.p99Ms,
      'non-2xx': row.service.non2xx,
    })),
  );
}

if (wanted('console')) {
  const consoleRoute = await benchConsole();
  results.console = consoleRoute;
  const { route, baseline } = consoleRoute;
  console.table([
    { route: 'GET /api/health (bare)', ...loadRow(baseline) },
    { route: 'POST /api/user-groups/customer/get-or-create', ...loadRow(route), ratio: consoleRoute.ratio },
  ]);
  warnNon2xx('console', [route, baseline]);
}

if (wanted('pages')) {
  const pages = await benchPageWeight();
  results.pages = pages;
  console.info(`first-load JavaScript, gzip level ${pages.gzipLevel}, empty page = ${pages.emptyPage.route}`);
  console.table(
    pages.pages.map((row) => ({
      page: row.page,
      'first-load kB gz': row.kB,
      'empty page kB gz': pages.emptyPage.kB,
      'delta kB': row.deltaKB,
      [`within +${pages.budgetKB} kB`]: row.withinBudget ? 'yes' : 'NO',
    })),
  );
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  // PostgreSQL only when asked for by name: it needs a server on 127.0.0.1:5432.
  if (dialect === 'sqlite' ? !wanted('directory') : !process.argv.includes('directory-postgres')) continue;
  const directory = await benchDirectory(dialect);
  results[dialect === 'sqlite' ? 'directory' : 'directoryPostgres'] = directory;
  console.table([
    {
      scenario: `directory search, ${directory.groups} groups, ${dialect}`,
      searches: directory.searches,
      'p50 ms': directory.p50Ms,
      'p95 ms': directory.p95Ms,
      'p99 ms': directory.p99Ms,
      'lookup by id p95 ms (baseline)': directory.lookupP95Ms,
      [`p95 under ${directory.goalP95Ms} ms`]: directory.withinGoal ? 'yes' : 'NO',
    },
  ]);
}

if (wanted('bulk')) {
  const bulk = await benchBulk();
  results.bulk = bulk;
  console.table([
    {
      scenario: `${bulk.rows} get-or-create rows, ${bulk.concurrency} in flight, median of ${bulk.rounds}`,
      'typed client rows/s (baseline)': bulk.clientRowsPerSecond,
      'job runner rows/s': bulk.runnerRowsPerSecond,
      ratio: bulk.ratio,
      [`at least ${bulk.goal}`]: bulk.ratio >= bulk.goal ? 'yes' : 'NO',
    },
  ]);
}

function loadRow(load: LoadResult) {
  return {
    'req/s': load.requestsPerSecond,
    'p50 ms': load.p50Ms,
    'p99 ms': load.p99Ms,
    'non-2xx': load.non2xx,
    errors: load.errors,
  };
}

/** A ratio over failed requests measures the failure path, not the route: say so loudly. */
function warnNon2xx(section: string, loads: LoadResult[]): void {
  const bad = loads.reduce((sum, load) => sum + load.non2xx + load.errors, 0);
  if (bad > 0)
    console.error(
      `\n!!! ${section}: ${bad} non-2xx answers or errors: the figures above are not valid !!!\n`,
    );
}

await writeFile(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.info('wrote bench/results.json');
