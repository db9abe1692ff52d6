/**
 * Who may call what: the least role for every console page and route handler, in one place. The
 * access sweep (e2e/access-sweep.spec.ts) reads the routes from app/ at test time and fails for a
 * route missing here, or an entry here without a route, so a new route cannot ship unlisted.
 *
 * `public`: anyone (the sign-in page; better-auth's endpoints, which the sweep checks on their own).
 */
export type MinimumRole = 'public' | 'viewer' | 'support' | 'admin';

export const routeAccess: Record<string, MinimumRole> = {
  'page /': 'viewer',
  'page /[environment]': 'viewer',
  'page /[environment]/bulk': 'viewer',
  'page /[environment]/bulk/[id]': 'viewer',
  'page /[environment]/groups/[id]': 'viewer',
  'page /[environment]/new': 'support',
  'page /[environment]/paste-token': 'support',
  'page /account': 'viewer',
  'page /audit': 'viewer',
  'page /operators': 'admin',
  'page /sign-in': 'public',
  'GET /api/audit': 'viewer',
  'GET /api/audit/export': 'viewer',
  'GET /api/auth/[...all]': 'public',
  'GET /api/health': 'public',
  'POST /api/auth/[...all]': 'public',
  'GET /api/operators': 'admin',
  'POST /api/operators': 'admin',
  'PATCH /api/operators/[id]': 'admin',
  'GET /api/jobs/[id]': 'viewer',
  'POST /api/jobs/[id]': 'support',
  'GET /api/jobs/[id]/result': 'viewer',
  'GET /api/user-groups/[environment]': 'viewer',
  'GET /api/user-groups/[environment]/jobs': 'viewer',
  'POST /api/user-groups/[environment]/jobs/get-or-create': 'support',
  'POST /api/user-groups/[environment]/jobs/rotate': 'support',
  'POST /api/user-groups/[environment]/delete': 'admin',
  'POST /api/user-groups/[environment]/get-or-create': 'support',
  'POST /api/user-groups/[environment]/rotate': 'support',
};

/** What a dynamic segment becomes when the sweep calls the route. */
export const sampleSegments: Record<string, string> = {
  '[id]': 'no-such-operator',
  '[environment]': 'testing',
  '[...all]': 'sign-in/email',
};
