import { listApprovals } from '@/lib/approvals/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/** The requests the reader may decide or asked for, and how many wait for them (the header's count). */
export const GET = consoleRoute(consoleRoutes.listApprovals, ({ operator, server }) =>
  listApprovals(server.database.db, operator, new Date(server.clock.now())),
);
