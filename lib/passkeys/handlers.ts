import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';
import { endUnprovedSessions } from '@/lib/sessions/store';
import { answerWithCookies } from '@/lib/two-factor/server';
import { recordSecondFactor } from '@/lib/two-factor/step-up';
import { finishPasskeyRegistration, removablePasskey, startPasskeyRegistration } from './server';
import { listPasskeys, removePasskey } from './store';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/account/passkeys
/** The operator's passkeys: name and when added. */
export const listPasskeysRoute = consoleRoute(consoleRoutes.listPasskeys, async ({ operator, server }) => ({
  passkeys: await listPasskeys(server.database.db, operator.id),
}));

/**
 * Adding a passkey, step two: the authenticator's answer to the challenge of
 * POST /api/account/passkeys/options. On record before it is kept.
 */
export const addPasskeyRoute = consoleRoute(
  {
    ...consoleRoutes.addPasskey,
    audit: { action: 'passkey.add', request: (body) => ({ detail: body.name }) },
  },
  async ({ request, operator, body, server }) => {
    const passkey = await finishPasskeyRegistration(server, request.headers, operator, body);
    // The authenticator verified the person: this session has proved a second factor, and is not
    // asked for the new one at once (every other password session of theirs is).
    await recordSecondFactor(server.database.db, operator.session.id, server.clock);
    return { passkey };
  },
);

// /api/account/passkeys/options
/**
 * Adding a passkey, step one: the options for the browser's authenticator. Their challenge is kept
 * by better-auth under a random id that only this browser's signed cookie names; it is taken once.
 * Nothing changes yet, so nothing is on record.
 */
export const startPasskeyRoute = consoleRoute(
  consoleRoutes.startPasskey,
  async ({ request, operator, server }) => {
    const { options, headers } = await startPasskeyRegistration(server, request.headers, operator);
    return answerWithCookies(options, headers);
  },
);

// /api/account/passkeys/[id]/remove
/**
 * Removes one of the operator's passkeys, on record first. Needs a recent authentication, and is
 * refused when the policy (CONSOLE_REQUIRE_2FA) asks for a second factor and it is their last one.
 */
export const removePasskeyRoute = consoleRoute(
  {
    ...consoleRoutes.removePasskey,
    load: removablePasskey,
    audit: { action: 'passkey.remove', request: (_body, name) => ({ detail: name }) },
  },
  async ({ operator, params, server }) => {
    const { db } = server.database;
    if (!(await removePasskey(db, operator.id, params.id)))
      throw new ConsoleError('not_found', 'You have no such passkey.');
    // Their other sessions still waiting for a second factor end: with the last one gone they
    // would open the console on a password alone.
    await endUnprovedSessions(db, operator.id, operator.session.id);
    return { done: true as const };
  },
);
