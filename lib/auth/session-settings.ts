import type { BetterAuthOptions } from 'better-auth';
import type { ConsoleConfig } from '@/lib/config';

/**
 * Sessions in the database with an absolute expiry (no sliding refresh), and what the console
 * keeps on each: how it signed in and what it has proved since.
 */
export function sessionSettings(auth: ConsoleConfig['auth']) {
  return {
    expiresIn: auth.sessionTtlSeconds,
    // better-auth's own "fresh session" rule (adding a passkey) is off: the console asks for an
    // authentication within CONSOLE_STEP_UP_MINUTES instead, which a step-up renews.
    freshAge: 0,
    disableSessionRefresh: true,
    additionalFields: {
      // Set when the session is created (lib/auth/session-hooks.ts), never from a request.
      signInMethod: { type: 'string', required: false, input: false },
      /** The last step-up (lib/two-factor/step-up.ts): with createdAt, how recently they authenticated. */
      steppedUpAt: { type: 'date', required: false, input: false },
      /** Wrong step-up proofs since the last right one (lib/two-factor/step-up.ts ends the session at a limit). */
      stepUpFailures: { type: 'number', required: false, input: false },
      /**
       * When this session proved a second factor, if it did: a sign-in with a code or a passkey
       * does; a password alone or an SSO sign-in proves none, and must be followed by one where the
       * operator has one (lib/two-factor/step-up.ts).
       */
      secondFactorAt: { type: 'date', required: false, input: false },
      /**
       * An SSO session's authentication, as the IdP dates it (`auth_time`): the console asks the
       * IdP for `max_age`, and an IdP that answers with an older authentication, or none, is no
       * recent authentication for step-up however new the session is (lib/server/index.ts).
       */
      idpAuthenticatedAt: { type: 'date', required: false, input: false },
    },
  } satisfies BetterAuthOptions['session'];
}
