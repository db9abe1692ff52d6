import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { withProof } from '@/lib/two-factor/proofs';
import { answerWithCookies, confirmEnrolment } from '@/lib/two-factor/server';

/** Enrolling, step two: the app's first code turns the second factor on (a new session cookie). */
export const POST = consoleRoute(
  {
    ...consoleRoutes.confirmTwoFactor,
    audit: {
      action: 'two-factor.enrol',
      request: () => ({ detail: 'the app’s first code: second factor on' }),
    },
  },
  async ({ request, operator, requestId, body, server }) => {
    const headers = await withProof(server, operator, requestId, () =>
      confirmEnrolment(server, request.headers, requestId, body.code, operator),
    );
    return answerWithCookies({ done: true as const }, headers);
  },
);
