import { passkeyName, removePasskey } from '@/lib/auth/passkeys';
import { endUnprovedSessions } from '@/lib/auth/sessions';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { mustKeepSecondFactor, requireRecentAuthentication } from '@/lib/server/step-up';

/**
 * Removes one of the operator's passkeys, on record first. Needs a recent authentication, and is
 * refused when the policy (CONSOLE_REQUIRE_2FA) asks for a second factor and it is their last one.
 */
export const POST = consoleRoute(
  consoleRoutes.removePasskey,
  async ({ operator, requestId, params, server }) => {
    const { db } = server.database;
    const name = await passkeyName(db, operator.id, params.id);
    if (name === null) throw new ConsoleError('not_found', 'You have no such passkey.');
    if (mustKeepSecondFactor(operator, server.config) && !operator.twoFactorEnabled && operator.passkeys <= 1)
      throw new ConsoleError(
        'conflict',
        `Your role (${operator.role}) must have a second factor: add another passkey or set up an authenticator app first.`,
      );
    requireRecentAuthentication(operator, 'own-account', server.config);
    await server.auditLog.onRecord(
      { action: 'passkey.remove', operator, requestId, detail: name },
      async () => {
        if (!(await removePasskey(db, operator.id, params.id)))
          throw new ConsoleError('not_found', 'You have no such passkey.');
        // Their other sessions still waiting for a second factor end: with the last one gone they
        // would open the console on a password alone.
        await endUnprovedSessions(db, operator.id, operator.session.id);
      },
    );
    return { done: true as const };
  },
);
