import { endSessions } from '@/lib/auth/sessions';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';

/**
 * Ends one of the operator's own sessions, or every other one, on record first. The current one
 * ends by signing out (which clears this browser's cookie too).
 */
export const POST = consoleRoute(consoleRoutes.endSessions, async ({ operator, requestId, body, server }) => {
  if ('sessionId' in body && body.sessionId === operator.session.id)
    throw new ConsoleError('conflict', 'This is the session you are using: sign out to end it.');
  const ended = await server.auditLog.onRecord(
    {
      action: 'session.end',
      operator,
      requestId,
      detail: 'sessionId' in body ? 'one of their own sessions' : 'all their other sessions',
    },
    () =>
      endSessions(
        server.database.db,
        operator.id,
        'sessionId' in body ? { sessionId: body.sessionId } : { allBut: operator.session.id },
      ),
  );
  return { ended };
});
