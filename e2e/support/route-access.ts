/**
 * Who may call what: the least role for every console page and route handler, in one place. The
 * access sweep (e2e/access-sweep.spec.ts) reads the routes from app/ at test time and fails for a
 * route missing here, or an entry here without a route, so a new route cannot ship unlisted.
 *
 * API routes come from their definitions, so a route handler without a definition fails the sweep.
 *
 * `public`: anyone (the sign-in page; better-auth's endpoints, which the sweep checks on their own).
 */
import { consoleRoutes } from '@/lib/console-api/routes';
import { permissionMinimumRole } from '@/lib/roles';

export type MinimumRole = 'public' | 'viewer' | 'support' | 'admin';

/** The console's API routes, from their one definition (lib/console-api/routes.ts). */
const definedRoutes = Object.fromEntries(
  Object.values(consoleRoutes).map((route) => [
    `${route.method} ${route.path}`,
    route.permission === 'public' ? 'public' : permissionMinimumRole[route.permission],
  ]),
);

export const routeAccess: Record<string, MinimumRole> = {
  'page /': 'viewer',
  'page /[environment]': 'viewer',
  'page /[environment]/bulk': 'viewer',
  'page /[environment]/bulk/[id]': 'viewer',
  'page /[environment]/groups/[id]': 'viewer',
  'page /[environment]/new': 'support',
  'page /[environment]/paste-token': 'support',
  'page /account': 'viewer',
  'page /approvals': 'viewer',
  'page /audit': 'viewer',
  'page /operators': 'admin',
  'page /sign-in': 'public',
  // Accepting an invitation: the link's secret is the key (app/api/invitation).
  'page /invitation': 'public',
  'GET /api/auth/[...all]': 'public',
  'POST /api/auth/[...all]': 'public',
  'GET /api/health': 'public',
  // Readiness: whether the database and each environment's service answer (states only, no address).
  'GET /api/ready': 'public',
  // SCIM: an identity provider's, no session; the bearer SCIM_TOKEN is the key (lib/scim/attacks.test.ts).
  ...Object.fromEntries(
    ['/api/scim/v2/Users', '/api/scim/v2/Groups'].flatMap((collection) => [
      [`GET ${collection}`, 'public'],
      [`POST ${collection}`, 'public'],
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => [`${method} ${collection}/[id]`, 'public']),
    ]),
  ),
  ...definedRoutes,
};

/** What a dynamic segment becomes when the sweep calls the route. */
export const sampleSegments: Record<string, string> = {
  '[id]': 'no-such-operator',
  '[environment]': 'testing',
  '[...all]': 'sign-in/email',
};
