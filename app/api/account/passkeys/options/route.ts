import { consoleRoutes } from '@/lib/console-api/routes';
import { startPasskeyRegistration } from '@/lib/passkeys/server';
import { consoleRoute } from '@/lib/server/route';
import { answerWithCookies } from '@/lib/two-factor/server';

/**
 * Adding a passkey, step one: the options for the browser's authenticator. Their challenge is kept
 * by better-auth under a random id that only this browser's signed cookie names; it is taken once.
 * Nothing changes yet, so nothing is on record.
 */
export const POST = consoleRoute(consoleRoutes.startPasskey, async ({ request, operator, server }) => {
  const { options, headers } = await startPasskeyRegistration(server, request.headers, operator);
  return answerWithCookies(options, headers);
});
