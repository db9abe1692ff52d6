/**
 * Page weight as Chromium sees it: the script a browser downloads for each console page, signed in
 * as each role that may open it, in a fresh context (empty cache) against the bench console, until
 * the network is idle. The empty page is the root not-found page of the same build, signed in.
 *
 * Each script body is gzipped here at the manifest method's level, so the two methods compare
 * whatever the server sends; the bytes that crossed the wire (and their Content-Encoding) are
 * reported next to it.
 */
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { type stateByRole, supportCredentials, viewerCredentials } from '../e2e/support/auth-states';
import { chromiumArgs, chromiumExecutable, noChromiumHelp } from '../e2e/support/chromium';
import { signInThroughPage } from '../e2e/support/sign-in';
import { GZIP_LEVEL, PAGE_BUDGET_KB } from '../scripts/page-weight';
import { type BenchConsole, startBenchConsole } from './console-server';
import { round } from './pairs';

type Role = keyof typeof stateByRole;

interface BrowserPageWeight {
  page: string;
  role: Role | 'signed out';
  kB: number;
  deltaKB: number;
  transferKB: number;
  scripts: number;
  withinBudget: boolean;
}

export interface BrowserPageWeightResult {
  gzipLevel: number;
  budgetKB: number;
  /** What the server sent: `gzip`, `br`, or `identity` (uncompressed). */
  contentEncodings: string[];
  emptyPage: { path: string; kB: number; transferKB: number; scripts: number };
  pages: BrowserPageWeight[];
}

const BENCH_GROUP = 'bench-page-weight';

/** Each page at a URL that renders it fully, and the least role that may open it. */
const browserPages: Array<{ page: string; path: string; minimum: Role | 'signed out' }> = [
  { page: '/customer', path: '/customer', minimum: 'viewer' },
  { page: '/customer/groups/[id]', path: `/customer/groups/${BENCH_GROUP}`, minimum: 'viewer' },
  { page: '/customer/new', path: '/customer/new', minimum: 'support' },
  { page: '/customer/paste-token', path: '/customer/paste-token', minimum: 'support' },
  { page: '/audit', path: '/audit', minimum: 'viewer' },
  { page: '/operators', path: '/operators', minimum: 'admin' },
  { page: '/account', path: '/account', minimum: 'viewer' },
  { page: '/sign-in', path: '/sign-in', minimum: 'signed out' },
];
/** Matches no route (no page has three segments like this): the root not-found page. */
const emptyPath = '/bench/no-such/page';
const rank: Record<Role, number> = { viewer: 0, support: 1, admin: 2 };

export async function benchBrowserPageWeight(): Promise<BrowserPageWeightResult> {
  const executablePath = chromiumExecutable();
  if (!executablePath) throw new Error(noChromiumHelp);
  const benchConsole = await startBenchConsole();
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    await seed(benchConsole);
    const states = await signInEachRole(browser, benchConsole);
    const encodings = new Set<string>();
    const weigh = async (path: string, state: Role | 'signed out') => {
      const weight = await scriptWeight(browser, benchConsole.origin + path, states[state]);
      for (const encoding of weight.encodings) encodings.add(encoding);
      return weight;
    };
    const empty = await weigh(emptyPath, 'admin');
    const pages: BrowserPageWeight[] = [];
    for (const { page, path, minimum } of browserPages) {
      const roles = minimum === 'signed out' ? (['signed out'] as const) : rolesFrom(minimum);
      for (const role of roles) {
        const { kB, transferKB, scripts } = await weigh(path, role);
        const deltaKB = round(kB - empty.kB);
        pages.push({ page, role, kB, deltaKB, transferKB, scripts, withinBudget: deltaKB <= PAGE_BUDGET_KB });
      }
    }
    return {
      gzipLevel: GZIP_LEVEL,
      budgetKB: PAGE_BUDGET_KB,
      contentEncodings: [...encodings].sort(),
      emptyPage: { path: emptyPath, kB: empty.kB, transferKB: empty.transferKB, scripts: empty.scripts },
      pages,
    };
  } finally {
    await browser.close();
    await benchConsole.stop();
  }
}

const rolesFrom = (minimum: Role) =>
  (Object.keys(rank) as Role[]).filter((role) => rank[role] >= rank[minimum]);

/** A group for the group page, and the e2e run's support and viewer operators. */
async function seed({ base, origin, cookie }: BenchConsole): Promise<void> {
  const headers = { cookie, origin, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, sent: Record<string, string> = headers) => {
    const answer = await fetch(base + path, { method: 'POST', headers: sent, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
    return answer.json() as Promise<Record<string, unknown>>;
  };
  await post('/api/user-groups/customer/get-or-create', { user_group_id: BENCH_GROUP, name: 'Page weight' });
  // Operators are invited; each accepts their link with their own password (signed in, unused).
  for (const [credentials, role] of [
    [supportCredentials, 'support'],
    [viewerCredentials, 'viewer'],
  ] as const) {
    const { invitation } = (await post('/api/operators', {
      email: credentials.email,
      name: credentials.name,
      role,
    })) as {
      invitation: { link: string };
    };
    const secret = new URL(invitation.link).hash.slice(1);
    const { password } = credentials;
    await post(
      '/api/invitation/accept',
      { secret, password, confirmPassword: password },
      { origin, 'content-type': 'application/json' },
    );
  }
}

/** Signs in through the sign-in page as each role (the e2e helper) and keeps the browser state. */
async function signInEachRole(browser: Browser, { origin, admin }: BenchConsole) {
  const credentials = { admin, support: supportCredentials, viewer: viewerCredentials };
  const states: Partial<Record<Role | 'signed out', string | undefined>> = { 'signed out': undefined };
  for (const role of Object.keys(credentials) as Role[]) {
    const context = await browser.newContext();
    await signInThroughPage(await context.newPage(), credentials[role], { origin });
    states[role] = JSON.stringify(await context.storageState());
    await context.close();
  }
  return states as Record<Role | 'signed out', string | undefined>;
}

/** The scripts one fresh context downloads for one page, until the network is idle. */
async function scriptWeight(browser: Browser, url: string, state: string | undefined) {
  // The prerendered not-found page carries no CSP nonce, so with the policy on Chromium would refuse
  // its scripts: the policy is bypassed on every page alike, which changes no request, only refusals.
  const context = await browser.newContext({
    bypassCSP: true,
    ...(state ? { storageState: JSON.parse(state) } : {}),
  });
  try {
    const page = await context.newPage();
    const pending: Array<Promise<{ gzipBytes: number; transferBytes: number; encoding: string }>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            gzipBytes: gzipSync(body, { level: GZIP_LEVEL }).length,
            transferBytes: sizes.responseBodySize,
            encoding: response.headers()['content-encoding'] ?? 'identity',
          };
        })(),
      );
    });
    const answer = await page.goto(url, { waitUntil: 'networkidle' });
    if (!answer) throw new Error(`no answer for ${url}`);
    if (new URL(page.url()).pathname !== new URL(url).pathname)
      throw new Error(`${url} sent the browser to ${page.url()}: not signed in?`);
    const scripts = await Promise.all(pending);
    const sum = (pick: (script: (typeof scripts)[number]) => number) =>
      round(scripts.reduce((total, script) => total + pick(script), 0) / 1024);
    return {
      kB: sum((script) => script.gzipBytes),
      transferKB: sum((script) => script.transferBytes),
      scripts: scripts.length,
      encodings: scripts.map((script) => script.encoding),
    };
  } finally {
    await context.close();
  }
}
