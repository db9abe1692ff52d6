/**
 * Every console route, defined once: its method, path, permission, body and answer schemas. The server's
 * handler wrapper (lib/server/route.ts) reads the permission and the body schema from here, the browser's
 * client (lib/browser-client/console-client.ts) the method, the path and the answer schema, and the route
 * access table of the e2e sweep the permission: a path, a schema or a permission is written once, and the
 * compiler finds every caller. Each feature defines its routes beside it (lib/<feature>/routes.ts); this
 * registry gathers them under the names every caller uses. Plain module: the browser imports it.
 */
import { approvalRoutes } from '@/lib/approvals/routes';
import { approvalWaitingRoutes } from '@/lib/approvals/waiting-route';
import { auditRoutes } from '@/lib/audit/routes';
import { auditChainRoutes } from '@/lib/audit-chain/routes';
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

// What a definition holds, and a route's URL: from here too, so that its importers need one path.
export type { ConsoleRouteDefinition, PathParams, StepUp } from '@/lib/console-api/define-route';
export { routePath } from '@/lib/console-api/define-route';

export const consoleRoutes = {
  ...directoryRoutes,
  ...userGroupRoutes,
  ...jobRoutes,
  ...upstreamStatusRoutes,
  ...operatorRoutes,
  ...invitationRoutes,
  ...twoFactorRoutes,
  ...passkeyRoutes,
  ...sessionRoutes,
  ...tokenRoutes,
  ...auditRoutes,
  ...auditChainRoutes,
  ...approvalRoutes,
  ...approvalWaitingRoutes,
};

type DefinedRoute = (typeof consoleRoutes)[keyof typeof consoleRoutes];

/** The audit actions the routes' definitions declare (`audits`), as a type. */
export type DeclaredAuditAction = NonNullable<DefinedRoute['audits']>[number];

/** …and as a list, in the registry's order: what the audit log adds to its own actions. */
export const declaredAuditActions: readonly DeclaredAuditAction[] = Object.values(consoleRoutes).flatMap(
  (route: DefinedRoute): readonly DeclaredAuditAction[] => route.audits ?? [],
);
