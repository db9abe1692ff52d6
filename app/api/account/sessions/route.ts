import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { listSessions } from '@/lib/sessions/store';

/** The operator's own open sessions, this browser's first. */
export const GET = consoleRoute(consoleRoutes.listSessions, async ({ operator, server }) => ({
  sessions: await listSessions(server.database.db, operator.id, operator.session.id),
}));
