import { consoleRoutes } from '@/lib/console-api/routes';
import { finishPasskeyRegistration } from '@/lib/passkeys/server';
import { listPasskeys } from '@/lib/passkeys/store';
import { consoleRoute } from '@/lib/server/route';
import { recordSecondFactor } from '@/lib/two-factor/step-up';

/** The operator's passkeys: name and when added. */
export const GET = consoleRoute(consoleRoutes.listPasskeys, async ({ operator, server }) => ({
  passkeys: await listPasskeys(server.database.db, operator.id),
}));

/**
 * Adding a passkey, step two: the authenticator's answer to the challenge of
 * POST /api/account/passkeys/options. On record before it is kept.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.addPasskey,
    audit: { action: 'passkey.add', request: (body) => ({ detail: body.name }) },
  },
  async ({ request, operator, body, server }) => {
    const passkey = await finishPasskeyRegistration(server, request.headers, operator, body);
    // The authenticator verified the person: this session has proved a second factor, and is not
    // asked for the new one at once (every other password session of theirs is).
    await recordSecondFactor(server.database.db, operator.session.id);
    return { passkey };
  },
);
