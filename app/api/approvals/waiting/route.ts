import { listApprovals } from '@/lib/approvals/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/** How many requests wait for the reader's decision: the header's count. */
export const GET = consoleRoute(consoleRoutes.countApprovals, async ({ operator, server }) => ({
  waiting: (await listApprovals(server.database.db, operator, new Date(server.clock.now()))).waiting,
}));
