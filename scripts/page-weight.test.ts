import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALLOWANCES,
  EMPTY_PAGE_BUDGET_KB,
  measurePageWeight,
  overBudget,
  PAGE_BUDGET_KB,
} from './page-weight';

/** The budget itself, without the allowances of today's build. */
const none = { pagesKB: {} };

/**
 * A build directory as `next build` leaves it, as far as the budget reads it: the runtime, the empty
 * page and two pages (not the console's: the check's allowances name none of them), each chunk of random bytes (gzip cannot shrink them: n kB weighs n kB).
 */
async function fakeBuild({ runtimeKB = 100, reportsKB = 20, settingsKB = 30 } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'page-weight-'));
  await mkdir(path.join(dir, 'static', 'chunks'), { recursive: true });
  const chunk = async (name: string, kB: number) => {
    await writeFile(path.join(dir, 'static', 'chunks', name), randomBytes(Math.round(kB * 1024)));
    return `static/chunks/${name}`;
  };
  const runtime = await chunk('runtime.js', runtimeKB);
  const header = await chunk('header.js', 10);
  const routes = {
    '/_not-found/page': { url: '/_not-found', chunks: [] as string[] },
    '/_global-error/page': { url: '/_global-error', chunks: [] },
    '/(console)/reports/page': { url: '/reports', chunks: [header, await chunk('reports.js', reportsKB)] },
    '/(console)/settings/page': {
      url: '/settings',
      chunks: [header, await chunk('settings.js', settingsKB)],
    },
  };
  await writeFile(path.join(dir, 'build-manifest.json'), JSON.stringify({ rootMainFiles: [runtime] }));
  const urls = Object.fromEntries(Object.entries(routes).map(([route, { url }]) => [route, url]));
  await writeFile(path.join(dir, 'app-path-routes-manifest.json'), JSON.stringify(urls));
  for (const [route, { chunks }] of Object.entries(routes)) {
    const file = path.join(dir, 'server', 'app', `${route}_client-reference-manifest.js`);
    await mkdir(path.dirname(file), { recursive: true });
    const manifest = { entryJSFiles: { '[project]/app/layout': [], [`[project]/app${route}`]: chunks } };
    await writeFile(
      file,
      `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(route)}] = ${JSON.stringify(manifest)};\n`,
    );
  }
  builds.push(dir);
  return dir;
}

const builds: string[] = [];
afterEach(async () => {
  await Promise.all(builds.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the page budget', () => {
  it('weighs every page of the build against the empty page, and passes pages within it', async () => {
    const result = await measurePageWeight(await fakeBuild());
    expect(result.emptyPage.kB).toBeGreaterThanOrEqual(100);
    expect(result.emptyPage.kB).toBeLessThan(101);
    expect(result.pages.map((page) => page.page)).toEqual(['/reports', '/settings']);
    const settings = result.pages.find((page) => page.page === '/settings');
    expect(settings?.deltaKB).toBeGreaterThanOrEqual(40);
    expect(settings?.deltaKB).toBeLessThan(41);
    expect(overBudget(result, none)).toEqual([]);
  });

  it(`fails a page that gains weight past +${PAGE_BUDGET_KB} kB over the empty page, and names it`, async () => {
    // The same build with the settings page's own chunk 21 kB heavier: 10 + 51 = 61 kB over.
    const result = await measurePageWeight(await fakeBuild({ settingsKB: 51 }));
    const over = overBudget(result, none);
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(
      new RegExp(`^/settings is \\+6\\d\\.\\d+ kB gzip over the empty page, over \\+${PAGE_BUDGET_KB} kB`),
    );
  });

  it(`fails an empty page over ${EMPTY_PAGE_BUDGET_KB} kB, whatever the pages weigh over it`, async () => {
    const over = overBudget(
      await measurePageWeight(await fakeBuild({ runtimeKB: EMPTY_PAGE_BUDGET_KB + 2 })),
      none,
    );
    expect(over).toEqual([
      expect.stringMatching(/^the empty page \(\/_not-found\) is 13\d\.\d+ kB gzip, over 130 kB$/),
    ]);
  });

  it('holds a page over the budget to its allowance, and asks for the allowance to go once it is within', async () => {
    const result = await measurePageWeight(await fakeBuild({ settingsKB: 70 }));
    expect(overBudget(result, { pagesKB: { '/settings': 81 } })).toEqual([]);
    expect(overBudget(result, { pagesKB: { '/settings': 79 } })).toEqual([
      expect.stringMatching(/^\/settings is \+80\.\d+ kB gzip over the empty page, over \+79 kB/),
    ]);
    expect(overBudget(result, { pagesKB: { '/settings': 81, '/reports': 40 } })).toEqual([
      expect.stringMatching(/^\/reports is within \+60 kB now \(\+30\.\d+\): remove its allowance$/),
    ]);
  });

  it('exits 1 from the step npm test runs, and 0 once the weight is gone', async () => {
    const run = (dir: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/page-budget.ts', dir]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    // The step holds today's build to its allowances: the empty page within its own, as a build's is.
    const runtimeKB = (ALLOWANCES.emptyPageKB ?? EMPTY_PAGE_BUDGET_KB) - 1;
    const heavy = await run(await fakeBuild({ runtimeKB, reportsKB: 70 }));
    expect(heavy.code).toBe(1);
    expect(heavy.stderr).toContain('/reports is +');
    expect((await run(await fakeBuild({ runtimeKB }))).code).toBe(0);
  });
});
