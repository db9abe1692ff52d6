/**
 * First-load JavaScript (gzip) of each console page against an empty page of the same build, read
 * from the build's manifests, with no server:
 * - `build-manifest.json` rootMainFiles: the runtime every App Router page loads;
 * - each route's `page_client-reference-manifest.js`: the client chunks of every segment file on
 *   that route (root layout and its boundaries, group layouts, the page).
 * The empty page is Next's built-in `/_not-found` of the same build: the root layout and nothing of
 * its own. Polyfills are left out (nomodule: modern browsers skip them), and so is CSS.
 * An upper bound: Chromium (page-weight-browser.ts, which decides) loads the same chunks, except
 * the root `forbidden.tsx` chunk (3.2 kB), which it fetches on the empty page but not on the
 * (console) pages, so their deltas here read 3.2 kB above the browser's. Chunks a page imports on
 * use (the palette, dialogs, the auth client) are in no manifest and loaded by neither.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { round } from './pairs';

interface PageWeight {
  page: string;
  kB: number;
  deltaKB: number;
  withinBudget: boolean;
  chunks: number;
}

export interface PageWeightResult {
  gzipLevel: number;
  budgetKB: number;
  emptyPage: { route: string; kB: number; chunks: number };
  pages: PageWeight[];
}

const nextDir = path.resolve('.next');
export const GZIP_LEVEL = 9;
export const BUDGET_KB = 60;

/**
 * The console's pages: a URL path and the App Router route of its page (route groups kept, as the
 * manifests name them). `/` only redirects to `/customer`; it is listed for its layouts' weight.
 */
const consolePages = [
  { page: '/', route: '/(console)/page' },
  { page: '/customer', route: '/(console)/[environment]/page' },
  { page: '/customer/groups/[id]', route: '/(console)/[environment]/groups/[id]/page' },
  { page: '/customer/new', route: '/(console)/[environment]/new/page' },
  { page: '/customer/paste-token', route: '/(console)/[environment]/paste-token/page' },
  { page: '/audit', route: '/(console)/audit/page' },
  { page: '/operators', route: '/(console)/operators/page' },
  { page: '/account', route: '/(console)/account/page' },
  { page: '/sign-in', route: '/sign-in/page' },
] as const;
const emptyRoute = '/_not-found/page';

export async function benchPageWeight(): Promise<PageWeightResult> {
  const buildManifest = JSON.parse(await readFile(path.join(nextDir, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles: string[];
  };
  const sizes = new Map<string, number>();
  const weigh = async (route: string) => {
    const files = new Set([...buildManifest.rootMainFiles, ...entryFiles(route)]);
    let bytes = 0;
    for (const file of files) {
      if (!sizes.has(file)) {
        const source = await readFile(path.join(nextDir, file));
        sizes.set(file, gzipSync(source, { level: GZIP_LEVEL }).length);
      }
      bytes += sizes.get(file) ?? 0;
    }
    return { kB: round(bytes / 1024), chunks: files.size };
  };

  const empty = await weigh(emptyRoute);
  const rows: PageWeight[] = [];
  for (const { page, route } of consolePages) {
    const { kB, chunks } = await weigh(route);
    const deltaKB = round(kB - empty.kB);
    rows.push({ page, kB, deltaKB, withinBudget: deltaKB <= BUDGET_KB, chunks });
  }
  return {
    gzipLevel: GZIP_LEVEL,
    budgetKB: BUDGET_KB,
    emptyPage: { route: '/_not-found', ...empty },
    pages: rows,
  };
}

/**
 * The client chunks of one route's segment files. The manifest is a script that assigns
 * `self.__RSC_MANIFEST[route]`; it lists only the segments on that route's own tree.
 */
function entryFiles(route: string): string[] {
  const scope = globalThis as {
    self?: unknown;
    __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }>;
  };
  scope.self = globalThis;
  const require = createRequire(import.meta.url);
  require(path.join(nextDir, 'server', 'app', `${route}_client-reference-manifest.js`));
  const manifest = scope.__RSC_MANIFEST?.[route];
  if (!manifest) throw new Error(`no client reference manifest for ${route}: run next build`);
  return Object.values(manifest.entryJSFiles).flat();
}
