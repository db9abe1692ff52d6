import { endSessions } from '@/lib/auth/sessions';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { STEP_UP_WRONG_PROOF_LIMIT } from '@/lib/limits';
import { consoleRoute } from '@/lib/server/route';
import { limitProof, verifyStepUp } from '@/lib/server/second-factor';
import { countWrongProof, recordStepUp } from '@/lib/server/step-up';

/**
 * Confirming who you are again (the dialog over a production action): the password, an
 * authenticator code or a backup code. Passed, the session counts as authenticated now for
 * CONSOLE_STEP_UP_MINUTES; a code also proves the session's second factor, which an SSO sign-in
 * under CONSOLE_REQUIRE_2FA_FOR_SSO must do before anything else. Passed and failed attempts are both on record. After
 * STEP_UP_WRONG_PROOF_LIMIT wrong proofs in a row the session ends: whoever holds it must sign in
 * again, past the sign-in limit and the second factor, rather than guess on for the session's life.
 */
export const POST = consoleRoute(
  consoleRoutes.stepUp,
  async ({ request, operator, requestId, body, server }) => {
    const { db } = server.database;
    await limitProof(server, request, operator.email);
    const entryId = await server.auditLog.record({
      action: 'step-up',
      operator,
      outcome: 'started',
      requestId,
    });
    let proof: string;
    try {
      proof = await verifyStepUp(server, request.headers, operator, body);
      await recordStepUp(db, operator.session.id, proof !== 'password');
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'internal';
      const wrongProof = code === 'invalid_request';
      await server.auditLog.settle(entryId, { outcome: wrongProof ? 'wrong_proof' : code }, requestId);
      if (wrongProof && (await countWrongProof(db, operator.session.id)) >= STEP_UP_WRONG_PROOF_LIMIT) {
        await server.auditLog.onRecord(
          {
            action: 'session.end',
            operator,
            requestId,
            detail: `this session, after ${STEP_UP_WRONG_PROOF_LIMIT} wrong confirmations in a row`,
          },
          () => endSessions(db, operator.id, { sessionId: operator.session.id }),
        );
        throw new ConsoleError(
          'unauthenticated',
          `Signed out after ${STEP_UP_WRONG_PROOF_LIMIT} wrong answers in a row: sign in again to go on.`,
        );
      }
      throw error;
    }
    await server.auditLog.settle(entryId, { outcome: 'success', detail: proof }, requestId);
    return { until: new Date(Date.now() + server.config.auth.stepUpSeconds * 1000).toISOString() };
  },
);
