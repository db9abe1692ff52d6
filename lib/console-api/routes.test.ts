import { describe, expect, it } from 'vitest';
import { approvalRoutes } from '@/lib/approvals/routes';
import { approvalWaitingRoutes } from '@/lib/approvals/waiting-route';
import { auditRoutes } from '@/lib/audit/routes';
import { auditChainRoutes } from '@/lib/audit-chain/routes';
import { consoleRoutes } from '@/lib/console-api/routes';
import { directoryRoutes } from '@/lib/directory/routes';
import { invitationRoutes } from '@/lib/invitations/routes';
import { jobRoutes } from '@/lib/jobs/routes';
import { operatorRoutes } from '@/lib/operators/routes';
import { passkeyRoutes } from '@/lib/passkeys/routes';
import { sessionRoutes } from '@/lib/sessions/routes';
import { tokenRoutes } from '@/lib/tokens/routes';
import { twoFactorRoutes } from '@/lib/two-factor/routes';
import { upstreamStatusRoutes } from '@/lib/upstream-status/routes';
import { userGroupRoutes } from '@/lib/user-groups/routes';

const featureRoutes = [
  approvalRoutes,
  approvalWaitingRoutes,
  auditRoutes,
  auditChainRoutes,
  directoryRoutes,
  invitationRoutes,
  jobRoutes,
  operatorRoutes,
  passkeyRoutes,
  sessionRoutes,
  tokenRoutes,
  twoFactorRoutes,
  upstreamStatusRoutes,
  userGroupRoutes,
];

describe('the console routes registry', () => {
  // Spreading the features' maps into one would let a later key silently replace an earlier one.
  it("keeps every feature's routes: no key is taken twice", () => {
    const keys = featureRoutes.flatMap((routes) => Object.keys(routes));
    expect(Object.keys(consoleRoutes).sort()).toEqual([...new Set(keys)].sort());
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('names every route and its method and path once', () => {
    const routes = Object.values(consoleRoutes);
    expect(new Set(routes.map((route) => route.name)).size).toBe(routes.length);
    expect(new Set(routes.map((route) => `${route.method} ${route.path}`)).size).toBe(routes.length);
  });
});
