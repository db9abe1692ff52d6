import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { answerWithCookies, confirmEnrolment, limitProof } from '@/lib/server/second-factor';

/** Enrolling, step two: the app's first code turns the second factor on (a new session cookie). */
export const POST = consoleRoute(
  consoleRoutes.confirmTwoFactor,
  async ({ request, operator, requestId, body, server }) => {
    await limitProof(server, request, operator.email);
    const headers = await server.auditLog.onRecord(
      { action: 'two-factor.enrol', operator, requestId, detail: 'the app’s first code: second factor on' },
      () => confirmEnrolment(server, request.headers, requestId, body.code, operator),
    );
    return answerWithCookies({ done: true as const }, headers);
  },
);
