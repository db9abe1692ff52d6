import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { limitProof, requirePasswordOrFreshSession, startEnrolment } from '@/lib/server/second-factor';

/**
 * Enrolling an authenticator app, step one: for the current password (or, without one, a recent
 * sign-in), a new secret and ten backup codes (shown once). Nothing is asked at sign-in until the
 * app's first code confirms it.
 */
export const POST = consoleRoute(
  consoleRoutes.startTwoFactor,
  async ({ request, operator, requestId, body, server }) => {
    await limitProof(server, request, operator.email);
    await requirePasswordOrFreshSession(server, operator, body.password);
    return server.auditLog.onRecord(
      {
        action: 'two-factor.enrol',
        operator,
        requestId,
        detail: 'a new secret, waiting for the app’s first code',
      },
      () => startEnrolment(server, request.headers, body.password),
    );
  },
);
