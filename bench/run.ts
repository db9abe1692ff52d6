/**
 * `npm run bench [-- service bulk pace console pages directory footprint]`: loopback only, bounded in time. Prints a table
 * per section and writes bench/results.json. Every figure is a ratio against a baseline measured
 * in the same run, because these machines are shared and noisy.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { measurePageWeight } from '../scripts/page-weight';
import { benchBulk } from './bulk';
import { compareRuns, REPEAT_TOLERANCE, type SavedRun } from './compare';
import { benchConsole } from './console';
import { ensureBuild } from './console-server';
import { benchDirectory } from './directory';
import { benchFootprint, FOOTPRINT_BUDGET_MB, START_BUDGET_MS } from './footprint';
import { benchPace } from './pace';
import { benchBrowserPageWeight } from './page-weight-browser';
import {
  CONSOLE_WARMUP_SECONDS,
  NOISY_SPREAD,
  ONE_PERSON_PLAN,
  PAIRS,
  type PairedFigure,
  SECONDS,
  WARMUP_SECONDS,
} from './pairs';
import { pinning } from './processes';
import { benchScale } from './scale';
import { printScale } from './scale-print';
import { benchService } from './service';
import { describeServiceSettings } from './service-settings';

const sections = process.argv.slice(2);
const pairsNote = `median of ${PAIRS} interleaved baseline/scenario pairs of ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up (the console's: ${CONSOLE_WARMUP_SECONDS} s); spread = (max - min) / median`;
const wanted = (name: string) => sections.length === 0 || sections.includes(name);
const resultsFile = new URL('./results.json', import.meta.url);
const previousRun: unknown = await readFile(resultsFile, 'utf8')
  .then((text) => JSON.parse(text) as unknown)
  .catch(() => null);
const results: Record<string, unknown> = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version },
  pinning,
};
console.info(
  pinning
    ? `cores: the servers measured on CPU ${pinning.servers}, this process (the load generator, the bulk runner) on CPU ${pinning.bench} (bench/processes.ts)`
    : 'cores: not pinned (no taskset, one core, or BENCH_PIN=off): the scheduler shares them, and the figures move more',
);

if (wanted('service')) {
  console.info(`\n${describeServiceSettings()}`);
  const service = await benchService();
  results.service = service;
  console.info(
    `\nservice at 32 connections against bare node:http (same body sizes), ${pairsNote}; ratio: the server's CPU per request, bare over scenario (bench/pairs.ts cpuCost)`,
  );
  console.table(
    service.map(({ scenario, requestBytes, answerBytes, figure }) => ({
      scenario,
      'CPU ms/req': figure.scenario.serverCpuMsPerRequest,
      'bare CPU ms/req': figure.baseline.serverCpuMsPerRequest,
      ratio: figure.ratio,
      'ratio spread': percent(figure.ratioSpread),
      'bare spread': percent(figure.baselineSpread),
      'req/s': figure.scenario.requestsPerSecond,
      'bare req/s': figure.baseline.requestsPerSecond,
      'req/s ratio': figure.throughputRatio,
      'p50 / p99 ms': `${figure.scenario.p50Ms} / ${figure.scenario.p99Ms}`,
      'bytes in / out': `${requestBytes} / ${answerBytes}`,
    })),
  );
  warnNoisy(service.map(({ scenario, figure }) => [scenario, figure]));
}

if (wanted('console')) {
  const consoleRoutes = await benchConsole();
  results.console = consoleRoutes;
  const { atLoad, onePerson } = consoleRoutes;
  console.info(
    `\nconsole at 32 connections against GET /api/health of the same build, ${pairsNote}; ratio: the CPU the console and its service spend per request, health over get-or-create`,
  );
  console.table([
    {
      route: 'POST /api/user-groups/customer/get-or-create',
      'CPU ms/req': atLoad.scenario.serverCpuMsPerRequest,
      'health CPU ms/req': atLoad.baseline.serverCpuMsPerRequest,
      ratio: atLoad.ratio,
      'ratio spread': percent(atLoad.ratioSpread),
      'baseline spread': percent(atLoad.baselineSpread),
      'req/s': atLoad.scenario.requestsPerSecond,
      'health req/s': atLoad.baseline.requestsPerSecond,
      'req/s ratio': atLoad.throughputRatio,
      'p50 / p99 ms': `${atLoad.scenario.p50Ms} / ${atLoad.scenario.p99Ms}`,
    },
  ]);
  console.info(
    `\nwhat one person feels: one connection, the console against the service called directly; median of ${ONE_PERSON_PLAN.pairs} interleaved pairs of ${ONE_PERSON_PLAN.seconds} s after a ${ONE_PERSON_PLAN.warmupSeconds} s warm-up, going round the three operations pair by pair`,
  );
  console.table(
    onePerson.map(({ operation, baseline, figure }) => ({
      'console route': operation,
      'p50 / p99 ms': `${figure.scenario.p50Ms} / ${figure.scenario.p99Ms}`,
      baseline,
      'baseline p50 / p99 ms': `${figure.baseline.p50Ms} / ${figure.baseline.p99Ms}`,
      'p50 ratio': figure.ratio,
      'ratio spread': percent(figure.ratioSpread),
    })),
  );
  warnNoisy([
    ['console get-or-create', atLoad],
    ...onePerson.map(({ operation, figure }): [string, PairedFigure] => [`one person: ${operation}`, figure]),
  ]);
}

if (wanted('pages')) {
  const pages = await measurePageWeight();
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
  // The bar is what Chromium downloads. The manifests list every segment's chunks, boundaries such
  // as forbidden.tsx included, which the browser fetches only where they render: an upper bound.
  const over = browser.pages.filter((row) => !row.withinBudget);
  if (over.length > 0) {
    console.error(
      `\n!!! pages over the +${browser.budgetKB} kB budget in Chromium: ${[...new Set(over.map((row) => row.page))].join(', ')} !!!\n`,
    );
    process.exitCode = 1;
  }
  const overByManifest = pages.pages.filter((row) => !row.withinBudget);
  if (overByManifest.length > 0)
    console.warn(
      `manifests (an upper bound) put ${overByManifest.map((row) => `${row.page} at +${row.deltaKB} kB`).join(', ')}; Chromium's figures above decide`,
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

for (const dialect of ['sqlite', 'postgres'] as const) {
  // Minutes of loading: only when asked for by name (`scale`, `scale-postgres`).
  if (!process.argv.includes(dialect === 'sqlite' ? 'scale' : 'scale-postgres')) continue;
  const scale = await benchScale(dialect);
  results[dialect === 'sqlite' ? 'scale' : 'scalePostgres'] = scale;
  printScale(scale);
}

if (wanted('bulk')) {
  const bulk = await benchBulk();
  results.bulk = bulk;
  console.table([
    {
      scenario: `${bulk.rows} get-or-create rows, ${bulk.concurrency} in flight, ratio: median of ${bulk.rounds} paired rounds`,
      'typed client rows/s (baseline)': bulk.clientRowsPerSecond,
      'job runner rows/s': bulk.runnerRowsPerSecond,
      ratio: bulk.ratio,
      [`at least ${bulk.goal}`]: bulk.ratio >= bulk.goal ? 'yes' : 'NO',
    },
  ]);
}

if (wanted('pace')) {
  const pace = await benchPace();
  results.pace = pace;
  console.table([
    {
      scenario: `${pace.rows} get-or-create rows at ${pace.requestsPerMinute}/min, the service allowing ${pace.serviceLimitPerSecond}/s; ratio: job runner over the paced client`,
      'paced client rows/s (baseline)': pace.clientRowsPerSecond,
      'job runner rows/s': pace.runnerRowsPerSecond,
      ratio: pace.ratio,
      '429s client / runner': `${pace.clientRefusals} / ${pace.runnerRefusals}`,
    },
  ]);
}

if (wanted('footprint')) {
  await ensureBuild();
  const footprint = await benchFootprint();
  results.footprint = footprint;
  console.info(
    `\n${footprint.command} on the embedded default, at rest ${footprint.idleSeconds} s after a sign-in and one get-or-create: resident memory (VmRSS) of every process it leaves running, npm's own aside`,
  );
  console.table(footprint.processes.map(({ pid, command, rssMB }) => ({ pid, command, 'RSS MB': rssMB })));
  const withinMemory = footprint.totalMB <= FOOTPRINT_BUDGET_MB;
  console.table([
    {
      'total MB': footprint.totalMB,
      [`at most ${FOOTPRINT_BUDGET_MB} MB`]: withinMemory ? 'yes' : 'NO',
    },
  ]);
  console.info(
    `time from ${footprint.command} to the sign-in page's first 200, the build present; CPU: what the started processes had used by then (npm's included), the time it takes on an idle machine`,
  );
  console.table(
    (['firstStart', 'restart'] as const).map((start) => ({
      start: start === 'firstStart' ? 'first (fresh DATA_DIR)' : 'again (same data)',
      'answers after s': footprint[start].answerMs / 1000,
      'CPU s': footprint[start].cpuMs / 1000,
      [`within ${START_BUDGET_MS / 1000} s`]: footprint[start].answerMs <= START_BUDGET_MS ? 'yes' : 'NO',
      'load average': footprint[start].loadAverage,
    })),
  );
  if (!withinMemory) {
    console.error(`\n!!! ${footprint.totalMB} MB at rest, over the ${FOOTPRINT_BUDGET_MB} MB budget !!!\n`);
    process.exitCode = 1;
  }
  // Time is the machine's as much as the code's: a slow start warns, it does not fail the run.
  if (footprint.restart.answerMs > START_BUDGET_MS)
    console.warn(
      `!!! the console answered ${footprint.restart.answerMs / 1000} s after ${footprint.command} (budget ${START_BUDGET_MS / 1000} s) at a load average of ${footprint.restart.loadAverage} on ${os.cpus().length} cores; its CPU time, ${footprint.restart.cpuMs / 1000} s, is what an idle machine takes !!!`,
    );
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** A figure whose baseline moved more than NOISY_SPREAD between its pairs says so. */
function warnNoisy(figures: Array<[string, PairedFigure]>): void {
  for (const [name, figure] of figures)
    if (figure.noisy)
      console.warn(
        `!!! ${name}: the baseline spread ${percent(figure.baselineSpread)} over its ${figure.pairs.length} runs (more than ${percent(NOISY_SPREAD)}): the machine moved while this figure was measured; trust its ratio only as far as another run repeats it !!!`,
      );
}

const comparisons = compareRuns(previousRun, results as SavedRun);
if (comparisons.length > 0) {
  const previousAt = (previousRun as { measuredAt?: string }).measuredAt ?? 'an earlier run';
  console.info(`\nthis run against the previous one (${previousAt}): within ${percent(REPEAT_TOLERANCE)}?`);
  console.table(
    comparisons.map(({ figure, previous, current, change, within }) => ({
      figure,
      previous,
      now: current,
      'now / previous': change,
      [`within ${percent(REPEAT_TOLERANCE)}`]: within ? 'yes' : 'NO',
    })),
  );
}

await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.info('wrote bench/results.json');
