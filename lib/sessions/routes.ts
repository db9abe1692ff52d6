/**
 * Sessions: one's own listed and ended, and every one of an operator ended by an admin. Their console routes'
 * definitions (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts.
 * Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import { endedSessionsSchema, endSessionsSchema, sessionListSchema } from '@/lib/sessions/contract';

export const sessionRoutes = {
  /** The operator's own open sessions. */
  listSessions: defineRoute({
    name: 'account.sessions',
    method: 'GET',
    path: '/api/account/sessions',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    answer: sessionListSchema,
  }),
  /** Ends one of them, or every other one: those browsers are signed out on their next request. */
  endSessions: defineRoute({
    audits: ['session.end'],
    name: 'account.sessions.end',
    method: 'POST',
    path: '/api/account/sessions/end',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: endSessionsSchema,
    answer: endedSessionsSchema,
  }),
  /** An admin ends every session of an operator. */
  endOperatorSessions: defineRoute({
    audits: ['session.end'],
    name: 'operators.end-sessions',
    method: 'POST',
    path: '/api/operators/[id]/sessions/end',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: endedSessionsSchema,
  }),
};
