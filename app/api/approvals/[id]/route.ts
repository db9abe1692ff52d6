import { findApprovalRequest, toApprovalView, visibleTo } from '@/lib/approvals/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';

/** One request, for its requester (whose page follows it) and those who may decide it. */
export const GET = consoleRoute(consoleRoutes.readApproval, async ({ operator, params, server }) => {
  const row = await findApprovalRequest(server.database.db, params.id);
  if (!row || !visibleTo(row, operator))
    throw new ConsoleError('not_found', 'No approval request has that id.');
  return { approval: toApprovalView(row, operator, new Date(server.clock.now())) };
});
