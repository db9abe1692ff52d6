import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { limitProof, verifyStepUp } from '@/lib/server/second-factor';
import { recordStepUp } from '@/lib/server/step-up';

/**
 * Confirming who you are again (the dialog over a production action): the password, an
 * authenticator code or a backup code. Passed, the session counts as authenticated now for
 * CONSOLE_STEP_UP_MINUTES. Passed and failed attempts are both on record.
 */
export const POST = consoleRoute(
  consoleRoutes.stepUp,
  async ({ request, operator, requestId, body, server }) => {
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
      await recordStepUp(server.database.db, operator.session.id);
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'internal';
      await server.auditLog.settle(
        entryId,
        { outcome: code === 'invalid_request' ? 'wrong_proof' : code },
        requestId,
      );
      throw error;
    }
    await server.auditLog.settle(entryId, { outcome: 'success', detail: proof }, requestId);
    return { until: new Date(Date.now() + server.config.auth.stepUpSeconds * 1000).toISOString() };
  },
);
