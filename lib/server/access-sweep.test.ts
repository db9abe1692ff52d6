import { afterAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Permission, permissionMinimumRole } from '@/lib/roles';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// The access sweep as a unit test over every route definition (unkey's per-route security tests),
// beside the e2e one over HTTP (e2e/access-sweep.spec.ts): each handler is called as nobody, from
// another site, and by a role below its permission, and each must refuse before it does anything.
const harness = await startRouteTestConsole('sweep', 3985);
const handlers = import.meta.glob<Record<string, unknown>>('/app/api/**/route.ts');
const viewer = await harness.addOperator('viewer@sweep.example', 'viewer', 'a-long-enough-password');
const support = await harness.addOperator('support@sweep.example', 'support', 'a-long-enough-password');

afterAll(() => harness.close());

const samples: Record<string, string> = { id: 'no-such-id', environment: 'testing' };
const guarded = Object.entries(consoleRoutes).filter(
  (entry): entry is [string, (typeof entry)[1] & { permission: Permission }] =>
    entry[1].permission !== 'public',
);

/**
 * The file that serves a route: its own, or a feature's one file whose pattern it fits
 * (lib/server/route-table.ts), with the segments that name it (`[action]` → `rename`).
 */
function fileOf(path: string): { file: string; naming: Record<string, string> } | null {
  if (handlers[`/app${path}/route.ts`]) return { file: `/app${path}/route.ts`, naming: {} };
  const parts = path.split('/');
  for (const file of Object.keys(handlers)) {
    const segments = file
      .replace(/^\/app/, '')
      .replace(/\/route\.ts$/, '')
      .split('/');
    if (segments.length !== parts.length) continue;
    const naming: Record<string, string> = {};
    const fits = segments.every((segment, i) => {
      const part = parts[i] ?? '';
      if (segment === part) return true;
      if (!/^\[\w+\]$/.test(segment) || part.startsWith('[')) return false;
      naming[segment.slice(1, -1)] = part;
      return true;
    });
    if (fits) return { file, naming };
  }
  return null;
}

async function handlerOf(route: { method: string; path: string }) {
  const served = fileOf(route.path);
  const load = served && handlers[served.file];
  if (!load) throw new Error(`no handler file for ${route.path}`);
  const handler = (await load())[route.method];
  if (typeof handler !== 'function') throw new Error(`${route.path} exports no ${route.method}`);
  return handler as (
    request: Request,
    context: { params: Promise<Record<string, string>> },
  ) => Promise<Response>;
}

const paramsOf = (path: string) =>
  harness.params({
    ...Object.fromEntries(
      [...path.matchAll(/\[(\w+)\]/g)].map(([, name = '']) => [name, samples[name] ?? 'x']),
    ),
    ...fileOf(path)?.naming,
  });

async function codeOf(response: Response) {
  return [response.status, ((await response.json()) as { error?: { code?: string } }).error?.code];
}

describe("a feature's one file (lib/server/route-table.ts)", () => {
  it('answers the documented 404 for a name that is no route, to anyone', async () => {
    const load = handlers['/app/api/user-groups/[environment]/[action]/route.ts'];
    const post = (await load?.())?.POST as (request: Request, context: unknown) => Promise<Response>;
    const params = harness.params({ environment: 'testing', action: 'no-such-action' });
    for (const cookie of ['', harness.adminCookie])
      expect(await codeOf(await post(harness.request('POST', {}, { cookie }), params))).toEqual([
        404,
        'not_found',
      ]);
  });
});

describe('every route definition, called directly', () => {
  it('has a handler file exporting its method', async () => {
    for (const [, route] of Object.entries(consoleRoutes))
      await expect(handlerOf(route)).resolves.toBeTypeOf('function');
  });

  it.each(guarded)('%s refuses nobody, another site and a role below its permission', async (_key, route) => {
    const handler = await handlerOf(route);
    const call = (cookie: string, headers: Record<string, string> = {}) =>
      handler(
        harness.request(route.method, route.method === 'GET' ? undefined : {}, { cookie, headers }),
        paramsOf(route.path),
      );

    expect(await codeOf(await call(''))).toEqual([401, 'unauthenticated']);
    expect(
      await codeOf(
        await call(harness.adminCookie, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
      ),
    ).toEqual([403, 'cross_site_request']);
    const least = permissionMinimumRole[route.permission];
    if (least === 'support' || least === 'admin')
      expect(await codeOf(await call(viewer.cookie))).toEqual([403, 'forbidden']);
    if (least === 'admin') expect(await codeOf(await call(support.cookie))).toEqual([403, 'forbidden']);
  });
});
