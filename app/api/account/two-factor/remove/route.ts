import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { endUnprovedSessions } from '@/lib/sessions/store';
import { withProof } from '@/lib/two-factor/proofs';
import { answerWithCookies, removeSecondFactor } from '@/lib/two-factor/server';
import { mustKeepSecondFactor } from '@/lib/two-factor/step-up';

/**
 * Removes the operator's authenticator app and backup codes, for the current password. Refused
 * when their role must have a second factor (CONSOLE_REQUIRE_2FA) and it is their last one (no
 * passkey): they would be locked out at once.
 */
export const POST = consoleRoute(
  { ...consoleRoutes.removeTwoFactor, audit: { action: 'two-factor.remove' } },
  async ({ request, operator, requestId, body, server }) => {
    if (mustKeepSecondFactor(operator, server.config) && operator.passkeys === 0)
      throw new ConsoleError(
        'conflict',
        `Your role (${operator.role}) must have a second factor: add a passkey or set up a new app first, or ask an admin to reset it.`,
      );
    const headers = await withProof(server, operator, requestId, async () => {
      // Their other sessions still waiting for a second factor end first: with the app gone (and
      // no passkey) they would open the console on a password alone.
      await endUnprovedSessions(server.database.db, operator.id, operator.session.id);
      return removeSecondFactor(server, request.headers, requestId, body.password, operator.session);
    });
    return answerWithCookies({ done: true as const }, headers);
  },
);
