import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { endSessions, listSessions } from './store';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/account/sessions
/** The operator's own open sessions, this browser's first. */
export const listSessionsRoute = consoleRoute(consoleRoutes.listSessions, async ({ operator, server }) => ({
  sessions: await listSessions(server.database.db, operator.id, operator.session.id, server.clock),
}));

// /api/account/sessions/end
/**
 * Ends one of the operator's own sessions, or every other one, on record first. The current one
 * ends by signing out (which clears this browser's cookie too).
 */
export const endSessionsRoute = consoleRoute(
  {
    ...consoleRoutes.endSessions,
    audit: {
      action: 'session.end',
      request: (body) => ({
        detail: 'sessionId' in body ? 'one of their own sessions' : 'all their other sessions',
      }),
    },
  },
  async ({ operator, body, server }) => {
    if ('sessionId' in body && body.sessionId === operator.session.id)
      throw new ConsoleError('conflict', 'This is the session you are using: sign out to end it.');
    const which = 'sessionId' in body ? { sessionId: body.sessionId } : { allBut: operator.session.id };
    return { ended: await endSessions(server.database.db, operator.id, which) };
  },
);
