import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { limitProof, startEnrolment } from '@/lib/server/second-factor';

/**
 * Enrolling an authenticator app, step one: for the current password, a new secret and ten backup
 * codes (shown once). Nothing is asked at sign-in until the app's first code confirms it.
 */
export const POST = consoleRoute(
  consoleRoutes.startTwoFactor,
  async ({ request, operator, requestId, body, server }) => {
    await limitProof(server, request, operator.email);
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
