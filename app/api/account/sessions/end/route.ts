import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { endSessions } from '@/lib/sessions/store';

/**
 * Ends one of the operator's own sessions, or every other one, on record first. The current one
 * ends by signing out (which clears this browser's cookie too).
 */
export const POST = consoleRoute(
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
