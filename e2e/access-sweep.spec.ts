import {
  type APIRequestContext,
  type APIResponse,
  expect,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import { type AppRoute, appRoutes, routeKey } from './support/app-routes';
import { adminState, supportState, viewerState } from './support/auth-states';
import { type MinimumRole, routeAccess, sampleSegments } from './support/route-access';
import { consoleUrl } from './support/servers';

/**
 * Every console page and route handler, found in app/ at test time, called without a session and
 * as each role: no session → redirect to /sign-in (pages) or 401 (API); a role below the route's
 * minimum → 403; at or above it → neither. Mutating calls send an empty JSON body, so an allowed
 * role gets a 400 and nothing changes.
 */
const identities = [
  { name: 'no session', role: null, state: undefined },
  { name: 'viewer', role: 'viewer', state: viewerState },
  { name: 'support', role: 'support', state: supportState },
  { name: 'admin', role: 'admin', state: adminState },
] as const;

const rank: Record<Exclude<MinimumRole, 'public'>, number> = { viewer: 0, support: 1, admin: 2 };
const routes = appRoutes();

test('every route has an access entry, and every entry a route', () => {
  const found = routes.map(routeKey);
  expect(
    found.filter((key) => !(key in routeAccess)),
    'routes without an entry in e2e/support/route-access.ts',
  ).toEqual([]);
  expect(
    Object.keys(routeAccess).filter((key) => !found.includes(key)),
    'entries in e2e/support/route-access.ts without a route',
  ).toEqual([]);
});

function samplePath(route: AppRoute): string {
  return route.pattern.replace(/\[[^\]]+\]/g, (segment) => sampleSegments[segment] ?? 'sample');
}

async function call(context: APIRequestContext, route: AppRoute): Promise<APIResponse> {
  const url = samplePath(route);
  if (route.method === 'GET') return context.get(url, { maxRedirects: 0 });
  return context.fetch(url, { method: route.method, data: {}, maxRedirects: 0 });
}

for (const identity of identities) {
  test.describe(`as ${identity.name}`, () => {
    let context: APIRequestContext;
    test.beforeAll(async () => {
      context = await playwrightRequest.newContext({
        baseURL: consoleUrl,
        storageState: identity.state ?? { cookies: [], origins: [] },
        extraHTTPHeaders: { origin: consoleUrl },
      });
    });
    test.afterAll(async () => {
      await context.dispose();
    });

    for (const route of routes) {
      const minimum = routeAccess[routeKey(route)];
      if (!minimum || minimum === 'public') continue;
      const allowed = identity.role !== null && rank[identity.role] >= rank[minimum];
      const expectation = identity.role === null ? 'sign in' : allowed ? 'allowed' : '403';
      test(`${routeKey(route)} (${minimum}+) → ${expectation}`, async () => {
        const response = await call(context, route);
        if (identity.role === null && route.kind === 'page') {
          expect(response.status()).toBe(307);
          expect(response.headers().location).toMatch(/^\/sign-in(\?|$)/);
        } else if (identity.role === null) {
          expect(response.status()).toBe(401);
          expect((await response.json()).error.code).toBe('unauthenticated');
        } else if (!allowed) {
          expect(response.status()).toBe(403);
          if (route.kind === 'api') expect((await response.json()).error.code).toBe('forbidden');
        } else {
          expect([401, 403]).not.toContain(response.status());
          expect(response.status()).toBeLessThan(500);
          // A page may send the person on (/ opens an environment), never to sign in.
          if (response.status() === 307) expect(response.headers().location).not.toMatch(/sign-in/);
        }
      });
    }

    test('the sign-in page is open; better-auth serves only its allow-list', async () => {
      const signInPage = await context.get('/sign-in', { maxRedirects: 0 });
      // A signed-in operator is sent on to the console.
      expect(signInPage.status()).toBe(identity.role === null ? 200 : 307);
      // Its answer would carry the session token, which the HttpOnly cookie keeps from scripts.
      expect((await context.get('/api/auth/get-session')).status()).toBe(404);
      for (const path of [
        '/api/auth/sign-up/email',
        '/api/auth/admin/set-role',
        '/api/auth/admin/list-users',
      ]) {
        const refused = await context.post(path, { data: {} });
        expect(refused.status(), path).toBe(404);
      }
    });
  });
}
