import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { startStepUpPasskey } from '@/lib/passkeys/store';
import { consoleRoute } from '@/lib/server/route';
import { relyingPartyOf } from '@/lib/two-factor/server';

/**
 * A step-up with a passkey, step one: a challenge for the operator's own passkeys, bound to this
 * session and taken once by POST /api/step-up. Nothing is proved yet, so nothing is on record.
 */
export const POST = consoleRoute(consoleRoutes.stepUpPasskey, async ({ operator, server }) => {
  const options = await startStepUpPasskey(server.database.db, relyingPartyOf(server.config), {
    id: operator.id,
    sessionId: operator.session.id,
  });
  if (!options) throw new ConsoleError('conflict', 'You have no passkey: confirm with your password.');
  return options as unknown as Record<string, unknown>;
});
