import { findOperator } from '@/lib/auth/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { resetSecondFactor } from '@/lib/server/second-factor';

/**
 * An admin turns off another operator's second factor (a lost phone), on record first, and ends
 * their sessions. The operator signs in with their password alone and, where their role must have
 * one, enrols again at once.
 */
export const POST = consoleRoute(
  consoleRoutes.resetSecondFactor,
  async ({ operator, requestId, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    // One's own factor goes through the account page, which asks for the password (and keeps a
    // role that must have one from removing it).
    if (target.id === operator.id)
      throw new ConsoleError('conflict', 'Your own second factor is changed on your account page.');
    await server.auditLog.onRecord(
      { action: 'two-factor.reset', operator, requestId, detail: `${target.email}; their sessions ended` },
      () => resetSecondFactor(server.database, target.id),
    );
    return { done: true as const };
  },
);
