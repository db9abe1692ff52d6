import { findOperator } from '@/lib/auth/operators';
import { endSessions } from '@/lib/auth/sessions';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';

/**
 * An admin ends every session of an operator (a lost laptop), on record first: each of their
 * browsers is signed out on its next request. Their own current session is kept.
 */
export const POST = consoleRoute(
  consoleRoutes.endOperatorSessions,
  async ({ operator, requestId, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    const ended = await server.auditLog.onRecord(
      { action: 'session.end', operator, requestId, detail: `all sessions of ${target.email}` },
      () =>
        endSessions(server.database.db, target.id, {
          allBut: target.id === operator.id ? operator.session.id : null,
        }),
    );
    return { ended };
  },
);
