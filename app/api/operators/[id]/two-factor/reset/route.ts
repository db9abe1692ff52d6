import { consoleRoutes } from '@/lib/console-api/routes';
import { otherOperator } from '@/lib/operators/server';
import { consoleRoute } from '@/lib/server/route';
import { resetSecondFactor } from '@/lib/two-factor/server';

/**
 * An admin turns off another operator's second factor (a lost phone), on record first, and ends
 * their sessions. The operator signs in with their password alone and, where their role must have
 * one, enrols again at once.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.resetSecondFactor,
    load: otherOperator,
    audit: {
      action: 'two-factor.reset',
      request: (_body, target) => ({ detail: `${target.email}; their sessions ended` }),
    },
  },
  async ({ subject: target, server }) => {
    await resetSecondFactor(server.database, target.id);
    return { done: true as const };
  },
);
