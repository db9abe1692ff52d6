import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { withProof } from '@/lib/two-factor/proofs';
import { startEnrolment } from '@/lib/two-factor/server';

/**
 * Enrolling an authenticator app, step one: for the current password (or, without one, a recent
 * sign-in), a new secret and ten backup codes (shown once). Nothing is asked at sign-in until the
 * app's first code confirms it.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.startTwoFactor,
    audit: {
      action: 'two-factor.enrol',
      request: () => ({ detail: 'a new secret, waiting for the app’s first code' }),
    },
  },
  async ({ request, operator, requestId, body, server }) => {
    return withProof(server, operator, requestId, () =>
      startEnrolment(server, request.headers, body.password),
    );
  },
);
