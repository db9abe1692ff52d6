import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { startStepUpPasskey } from '@/lib/passkeys/store';
import { consoleRoute } from '@/lib/server/route';
import { endUnprovedSessions } from '@/lib/sessions/store';
import { withProof } from './proofs';
import {
  answerWithCookies,
  confirmEnrolment,
  newBackupCodes,
  relyingPartyOf,
  removeSecondFactor,
  startEnrolment,
  verifyStepUp,
} from './server';
import { mustKeepSecondFactor, recordStepUp, secondFactorDue } from './step-up';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/step-up
/**
 * Confirming who you are again (the dialog over a production action or a change of access): the
 * password, an authenticator code, a backup code or a passkey. Passed, the session counts as
 * authenticated now for CONSOLE_STEP_UP_MINUTES; a code or a passkey also proves the session's
 * second factor, which a password sign-in of an operator who has one, or an SSO sign-in under
 * CONSOLE_REQUIRE_2FA_FOR_SSO, must do before anything else. Passed and failed attempts are both on
 * record (a refused proof as `wrong_proof`, a passed one with its kind); wrong ones count against
 * the session (lib/two-factor/proofs.ts), which ends at the limit.
 */
export const stepUpRoute = consoleRoute(
  {
    ...consoleRoutes.stepUp,
    audit: { action: 'step-up', refusal: (code) => (code === 'invalid_request' ? 'wrong_proof' : code) },
  },
  async ({ request, operator, requestId, body, server, note }) => {
    // A session still to confirm its second factor has given its password already: it proves nothing more.
    if ('password' in body && secondFactorDue(operator, server.config) === 'confirm')
      throw new ConsoleError(
        'conflict',
        'Your password is not a second factor: confirm with your passkey or your authenticator code.',
      );
    return withProof(server, operator, requestId, async () => {
      const proof = await verifyStepUp(server, request.headers, operator, body);
      await recordStepUp(server.database.db, operator.session.id, proof !== 'password', server.clock);
      note({ detail: proof });
      return {
        until: new Date(server.clock.now() + server.config.auth.stepUpSeconds * 1000).toISOString(),
      };
    });
  },
);

// /api/step-up/passkey
/**
 * A step-up with a passkey, step one: a challenge for the operator's own passkeys, bound to this
 * session and taken once by POST /api/step-up. Nothing is proved yet, so nothing is on record.
 */
export const stepUpPasskeyRoute = consoleRoute(consoleRoutes.stepUpPasskey, async ({ operator, server }) => {
  const options = await startStepUpPasskey(server.database.db, server.clock, relyingPartyOf(server.config), {
    id: operator.id,
    sessionId: operator.session.id,
  });
  if (!options) throw new ConsoleError('conflict', 'You have no passkey: confirm with your password.');
  return options as unknown as Record<string, unknown>;
});

// /api/account/two-factor
/**
 * Enrolling an authenticator app, step one: for the current password (or, without one, a recent
 * sign-in), a new secret and ten backup codes (shown once). Nothing is asked at sign-in until the
 * app's first code confirms it.
 */
export const startTwoFactorRoute = consoleRoute(
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

// /api/account/two-factor/confirm
/** Enrolling, step two: the app's first code turns the second factor on (a new session cookie). */
export const confirmTwoFactorRoute = consoleRoute(
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

// /api/account/two-factor/backup-codes
/** Ten new backup codes for the current password, shown once; the old ones stop working. */
export const newBackupCodesRoute = consoleRoute(
  {
    ...consoleRoutes.newBackupCodes,
    audit: { action: 'two-factor.backup-codes', request: () => ({ detail: 'ten new codes' }) },
  },
  async ({ request, operator, requestId, body, server }) => {
    return withProof(server, operator, requestId, () =>
      newBackupCodes(server, request.headers, body.password),
    );
  },
);

// /api/account/two-factor/remove
/**
 * Removes the operator's authenticator app and backup codes, for the current password. Refused
 * when their role must have a second factor (CONSOLE_REQUIRE_2FA) and it is their last one (no
 * passkey): they would be locked out at once.
 */
export const removeTwoFactorRoute = consoleRoute(
  { ...consoleRoutes.removeTwoFactor, audit: { action: 'two-factor.remove' } },
  async ({ request, operator, requestId, body, server }) => {
    if (mustKeepSecondFactor(operator, server.config) && operator.passkeys === 0)
      throw new ConsoleError(
        'conflict',
        `Your role (${operator.role}) must have a second factor: add a passkey or set up a new app first, or ask an admin to reset it.`,
      );
    const headers = await withProof(server, operator, requestId, async () => {
      // Their other sessions still waiting for a second factor end first: with the app gone (and
      // no passkey) they would open the console on a password alone.
      await endUnprovedSessions(server.database.db, operator.id, operator.session.id);
      return removeSecondFactor(server, request.headers, requestId, body.password, operator.session);
    });
    return answerWithCookies({ done: true as const }, headers);
  },
);
