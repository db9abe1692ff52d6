import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { removablePasskey } from '@/lib/passkeys/server';
import { removePasskey } from '@/lib/passkeys/store';
import { consoleRoute } from '@/lib/server/route';
import { endUnprovedSessions } from '@/lib/sessions/store';

/**
 * Removes one of the operator's passkeys, on record first. Needs a recent authentication, and is
 * refused when the policy (CONSOLE_REQUIRE_2FA) asks for a second factor and it is their last one.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.removePasskey,
    load: removablePasskey,
    audit: { action: 'passkey.remove', request: (_body, name) => ({ detail: name }) },
  },
  async ({ operator, params, server }) => {
    const { db } = server.database;
    if (!(await removePasskey(db, operator.id, params.id)))
      throw new ConsoleError('not_found', 'You have no such passkey.');
    // Their other sessions still waiting for a second factor end: with the last one gone they
    // would open the console on a password alone.
    await endUnprovedSessions(db, operator.id, operator.session.id);
    return { done: true as const };
  },
);
