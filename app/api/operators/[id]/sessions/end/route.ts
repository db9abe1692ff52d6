import { consoleRoutes } from '@/lib/console-api/routes';
import { targetOperator } from '@/lib/operators/server';
import { consoleRoute } from '@/lib/server/route';
import { endSessions } from '@/lib/sessions/store';

/**
 * An admin ends every session of an operator (a lost laptop), on record first: each of their
 * browsers is signed out on its next request. Their own current session is kept.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.endOperatorSessions,
    load: targetOperator,
    audit: {
      action: 'session.end',
      request: (_body, target) => ({ detail: `all sessions of ${target.email}` }),
    },
  },
  async ({ operator, subject: target, server }) => ({
    ended: await endSessions(server.database.db, target.id, {
      allBut: target.id === operator.id ? operator.session.id : null,
    }),
  }),
);
