import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { findApprovalRequest, listApprovals, toApprovalView, visibleTo } from './store';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts, waiting-route.ts): what it reads and the call it adapts. Decisions are not
 * here: they go to the action's own route (./frame.ts). The app/api route files only name them.
 * Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/approvals
/** The requests the reader may decide or asked for, and how many wait for them (the header's count). */
export const listApprovalsRoute = consoleRoute(consoleRoutes.listApprovals, ({ operator, server }) =>
  listApprovals(server.database.db, operator, new Date(server.clock.now())),
);

// /api/approvals/[id]
/** One request, for its requester (whose page follows it) and those who may decide it. */
export const readApprovalRoute = consoleRoute(
  consoleRoutes.readApproval,
  async ({ operator, params, server }) => {
    const row = await findApprovalRequest(server.database.db, params.id);
    if (!row || !visibleTo(row, operator))
      throw new ConsoleError('not_found', 'No approval request has that id.');
    return { approval: toApprovalView(row, operator, new Date(server.clock.now())) };
  },
);

// /api/approvals/waiting
/** How many requests wait for the reader's decision: the header's count. */
export const countApprovalsRoute = consoleRoute(
  consoleRoutes.countApprovals,
  async ({ operator, server }) => ({
    waiting: (await listApprovals(server.database.db, operator, new Date(server.clock.now()))).waiting,
  }),
);
