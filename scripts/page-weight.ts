/**
 * First-load JavaScript (gzip) of every page of a `next build`, read from its manifests with no server,
 * and the console's budget for it. Bytes, not time: the same build always gives the same figures, so
 * `npm test` holds the budget (scripts/page-budget.ts, after the build) and `npm run bench -- pages`
 * reports the same figures next to Chromium's (bench/page-weight-browser.ts).
 *
 * A page's weight is what its route's manifests list:
 * - `build-manifest.json` rootMainFiles: the runtime every App Router page loads;
 * - the route's `page_client-reference-manifest.js`: the client chunks of every segment file on it
 *   (the root layout and its boundaries, group layouts, the page).
 * Every page route in `app-path-routes-manifest.json` is weighed, so a new page is held too. The
 * empty page is Next's `/_not-found` of the same build: the root layout and nothing of its own.
 * Polyfills are left out (nomodule: modern browsers skip them), and so is CSS. Code a page imports on
 * use (dialogs, the palette, the step-up dialog, the auth client) is in no manifest: a page that
 * fetched such a chunk at once would still pay for it in Chromium's figure, which the bench prints.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

/** The empty page's script, at most (kB gzip): the runtime and the root layout. */
export const EMPTY_PAGE_BUDGET_KB = 130;
/** Every page's script over the empty page's, at most (kB gzip). */
export const PAGE_BUDGET_KB = 60;
export const GZIP_LEVEL = 9;

/**
 * Where a build is still over the budget, what it is held to meanwhile (kB gzip, measured 2026-11-27
 * and rounded up): no page may grow while it waits for its cuts (bench/README.md, "Page weight", says
 * what is left). A page that comes within the budget must leave this list, and the check says so.
 * - The empty page: Next 16.4.5's own client (its runtime, 129.1 kB, and the App Router's segment
 *   boundaries, 3.5 kB) weighs 132.5 kB with no code of the console's.
 * - The console's pages: the header's share (the query client, zod/mini behind the route client,
 *   tailwind-merge's merge with the console's own class map) leaves too little of the +60 kB to the
 *   forms (react-hook-form, its zod resolver, the forms' schemas). The console's share is +47.3 kB
 *   and react-hook-form alone 14.1 kB: a page whose form shows at once starts at +61.4.
 */
export const ALLOWANCES: Allowances = {
  emptyPageKB: 133,
  pagesKB: {
    // The next three: +0.18 to +0.26 kB when a 202 became an answer of its own ({ waiting }) in the
    // route client and its mutation hook (one browser error class, issue #42), 2026-11-28.
    '/[environment]/bulk/[id]': 61,
    // Within +60 until each route's definition came to declare the audit actions it writes (a route
    // declared once, issue #42): +0.27 kB of action names in the routes the page calls, 2026-11-28.
    '/[environment]/groups/[id]': 61,
    // 68 until the two-person approval's answer (202, followed by the route client) came to every page.
    '/[environment]/new': 70,
    // 68 until the focus keeper (after an action, the focus goes to its result) came to every console page;
    // 69 until the routes declared their audit actions (+0.09 kB, issue #42).
    '/account': 70,
    // 70 until making someone admin under two-person approval asked for a reason there (+2.6 kB).
    '/operators': 74,
  },
};

export interface Allowances {
  emptyPageKB?: number;
  /** By page, as the URL names it: kB over the empty page. */
  pagesKB: Record<string, number>;
}

/** The route whose weight every other page is measured against. */
const EMPTY_ROUTE = '/_not-found/page';
/** Pages that are no page of the console: Next's own error page, rendered when the root layout fails. */
const NOT_PAGES = new Set(['/_global-error/page']);

interface PageWeight {
  /** As the URL names it (`/[environment]/groups/[id]`). */
  page: string;
  kB: number;
  deltaKB: number;
  withinBudget: boolean;
  chunks: number;
}

export interface PageWeightResult {
  gzipLevel: number;
  budgetKB: number;
  emptyPageBudgetKB: number;
  emptyPage: { route: string; kB: number; chunks: number; withinBudget: boolean };
  pages: PageWeight[];
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Weighs every page of the build in `nextDir` (`.next` by default). */
export async function measurePageWeight(nextDir = path.resolve('.next')): Promise<PageWeightResult> {
  const readJson = async <T>(file: string) =>
    JSON.parse(await readFile(path.join(nextDir, file), 'utf8')) as T;
  const { rootMainFiles } = await readJson<{ rootMainFiles: string[] }>('build-manifest.json');
  const routes = await readJson<Record<string, string>>('app-path-routes-manifest.json');
  const sizes = new Map<string, number>();
  const weigh = async (route: string) => {
    const files = new Set([...rootMainFiles, ...(await entryFiles(nextDir, route))]);
    let bytes = 0;
    for (const file of files) {
      let size = sizes.get(file);
      if (size === undefined) {
        size = gzipSync(await readFile(path.join(nextDir, file)), { level: GZIP_LEVEL }).length;
        sizes.set(file, size);
      }
      bytes += size;
    }
    return { kB: round(bytes / 1024), chunks: files.size };
  };

  const empty = await weigh(EMPTY_ROUTE);
  const pages: PageWeight[] = [];
  for (const [route, page] of Object.entries(routes).sort(([, a], [, b]) => a.localeCompare(b))) {
    if (!route.endsWith('/page') || route === EMPTY_ROUTE || NOT_PAGES.has(route)) continue;
    const { kB, chunks } = await weigh(route);
    const deltaKB = round(kB - empty.kB);
    pages.push({ page, kB, deltaKB, withinBudget: deltaKB <= PAGE_BUDGET_KB, chunks });
  }
  return {
    gzipLevel: GZIP_LEVEL,
    budgetKB: PAGE_BUDGET_KB,
    emptyPageBudgetKB: EMPTY_PAGE_BUDGET_KB,
    emptyPage: { route: '/_not-found', ...empty, withinBudget: empty.kB <= EMPTY_PAGE_BUDGET_KB },
    pages,
  };
}

/**
 * What is over budget (or its allowance), one line each, in words a person reads in the test's output;
 * and an allowance no longer needed, so that it goes. None: the build holds.
 */
export function overBudget(result: PageWeightResult, allowances: Allowances = ALLOWANCES): string[] {
  const over: string[] = [];
  const empty = result.emptyPage;
  const emptyLimit = allowances.emptyPageKB ?? result.emptyPageBudgetKB;
  if (empty.kB > emptyLimit)
    over.push(`the empty page (${empty.route}) is ${empty.kB} kB gzip, over ${emptyLimit} kB`);
  else if (allowances.emptyPageKB !== undefined && empty.withinBudget)
    over.push(`the empty page is within ${result.emptyPageBudgetKB} kB now: remove its allowance`);
  for (const page of result.pages) {
    const allowance = allowances.pagesKB[page.page];
    const limit = allowance ?? result.budgetKB;
    if (page.deltaKB > limit)
      over.push(
        `${page.page} is +${page.deltaKB} kB gzip over the empty page, over +${limit} kB (${page.kB} kB)`,
      );
    else if (allowance !== undefined && page.withinBudget)
      over.push(`${page.page} is within +${result.budgetKB} kB now (+${page.deltaKB}): remove its allowance`);
  }
  return over;
}

/**
 * The client chunks of one route's segment files. The manifest is a script that assigns
 * `self.__RSC_MANIFEST[route]`; it lists only the segments on that route's own tree. Run in a
 * context of its own, so that routes and builds never mix.
 */
async function entryFiles(nextDir: string, route: string): Promise<string[]> {
  const file = path.join(nextDir, 'server', 'app', `${route}_client-reference-manifest.js`);
  const source = await readFile(file, 'utf8').catch(() => {
    throw new Error(`no client reference manifest for ${route} in ${nextDir}: run next build`);
  });
  const scope: {
    self?: unknown;
    __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }>;
  } = {};
  scope.self = scope;
  runInNewContext(source, scope);
  const manifest = scope.__RSC_MANIFEST?.[route];
  if (!manifest) throw new Error(`the client reference manifest of ${route} does not name it`);
  return Object.values(manifest.entryJSFiles).flat();
}
