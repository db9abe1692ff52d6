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
import { benchBrowserPageWeight } from './page-weight-browser';
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
  const browser = await benchBrowserPageWeight();
  results.pages = { manifests: pages, chromium: browser };
  console.info(
    `\nfirst-load JavaScript from the build's manifests, gzip level ${pages.gzipLevel}, empty page = ${pages.emptyPage.route} (${pages.emptyPage.kB} kB)`,
  );
  console.table(
    pages.pages.map((row) => ({
      page: row.page,
      'kB gz': row.kB,
      'delta kB': row.deltaKB,
      [`within +${pages.budgetKB} kB`]: row.withinBudget ? 'yes' : 'NO',
    })),
  );
  console.info(
    `\nscript Chromium downloads, signed in, bodies gzipped here at level ${browser.gzipLevel} (server sent: ${browser.contentEncodings.join(', ')}), empty page = ${browser.emptyPage.path} (${browser.emptyPage.kB} kB)`,
  );
  console.table(
    browser.pages.map((row) => ({
      page: row.page,
      role: row.role,
      'kB gz': row.kB,
      'delta kB': row.deltaKB,
      'on the wire kB': row.transferKB,
      scripts: row.scripts,
      [`within +${browser.budgetKB} kB`]: row.withinBudget ? 'yes' : 'NO',
    })),
  );
  const over = [...pages.pages, ...browser.pages].filter((row) => !row.withinBudget);
  if (over.length > 0) {
    console.error(
      `\n!!! pages over the +${pages.budgetKB} kB budget: ${[...new Set(over.map((row) => row.page))].join(', ')} !!!\n`,
    );
    process.exitCode = 1;
  }
}

if (wanted('directory')) {
  const directory = await benchDirectory();
  results.directory = directory;
  console.table([
    {
      scenario: `directory search, ${directory.groups} groups`,
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
    { job: `${bulk.rows} get-or-create rows`, seconds: bulk.seconds, 'rows/s': bulk.rowsPerSecond },
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
