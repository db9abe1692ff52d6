import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { withProof } from '@/lib/two-factor/proofs';
import { verifyStepUp } from '@/lib/two-factor/server';
import { recordStepUp, secondFactorDue } from '@/lib/two-factor/step-up';

/**
 * Confirming who you are again (the dialog over a production action or a change of access): the
 * password, an authenticator code, a backup code or a passkey. Passed, the session counts as
 * authenticated now for CONSOLE_STEP_UP_MINUTES; a code or a passkey also proves the session's
 * second factor, which a password sign-in of an operator who has one, or an SSO sign-in under
 * CONSOLE_REQUIRE_2FA_FOR_SSO, must do before anything else. Passed and failed attempts are both on
 * record (a refused proof as `wrong_proof`, a passed one with its kind); wrong ones count against
 * the session (lib/two-factor/proofs.ts), which ends at the limit.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.stepUp,
    audit: { action: 'step-up', refusal: (code) => (code === 'invalid_request' ? 'wrong_proof' : code) },
  },
  async ({ request, operator, requestId, body, server, note }) => {
    // A session still to confirm its second factor has given its password already: it proves nothing more.
    if ('password' in body && secondFactorDue(operator, server.config) === 'confirm')
      throw new ConsoleError(
        'conflict',
        'Your password is not a second factor: confirm with your passkey or your authenticator code.',
      );
    return withProof(server, operator, requestId, async () => {
      const proof = await verifyStepUp(server, request.headers, operator, body);
      await recordStepUp(server.database.db, operator.session.id, proof !== 'password');
      note({ detail: proof });
      return { until: new Date(Date.now() + server.config.auth.stepUpSeconds * 1000).toISOString() };
    });
  },
);
