import type { BetterAuthOptions } from 'better-auth';
import { APIError } from 'better-auth/api';
import type { ConsoleConfig } from '@/lib/config';
import { clientAddress } from '@/lib/config/trusted-proxies';
import type { ConsoleAuthDependencies, NewSession, SignInMethod } from './auth-dependencies';
import { isSsoCallback, PASSKEY_SIGN_IN_PATH, provesSecondFactor } from './sign-in-paths';

/**
 * better-auth's error code for a sign-in refused because its audit entry could not be written: the
 * sign-in answers 503 with it (the console's route answers audit_unavailable), an SSO callback
 * redirects to the sign-in page with it.
 */
export const SIGN_IN_NOT_RECORDED = 'AUDIT_UNAVAILABLE';

type DatabaseHooks = NonNullable<BetterAuthOptions['databaseHooks']>;

/**
 * better-auth's session hooks: a new session says how it signed in and what it proved, and a
 * sign-in is on record before its session exists. A session that replaces the signed-in operator's
 * (a second factor enrolled, a password changed) is no sign-in and keeps what the old one carried.
 */
export function sessionHooks(config: ConsoleConfig, deps: ConsoleAuthDependencies) {
  return {
    create: {
      // On record before it exists: a sign-in the audit log cannot record does not happen (no
      // session row to delete afterwards, no cookie).
      before: async (session, context) => {
        const carried = (session as { signInMethod?: unknown }).signInMethod;
        const signInMethod: SignInMethod =
          carried === 'sso' || carried === 'password' || carried === 'passkey'
            ? carried
            : isSsoCallback(context?.path)
              ? 'sso'
              : context?.path === PASSKEY_SIGN_IN_PATH
                ? 'passkey'
                : 'password';
        // The address the sessions list shows: the client's as the console decides it (the socket,
        // or a trusted proxy's report), never a header anyone can send (better-auth's default).
        const headers = (context as { headers?: Headers } | null)?.headers;
        const ipAddress = headers ? (clientAddress(headers, config.trustedProxies) ?? '') : '';
        const carry = deps.replacedSessionCarry?.();
        if (carry)
          return {
            data: {
              ...session,
              signInMethod: carry.signInMethod ?? signInMethod,
              secondFactorAt: carry.secondFactorAt ?? null,
              ipAddress,
            },
          };
        try {
          await deps.onSessionCreating?.(newSession(session, context?.path));
        } catch {
          deps.log('error', 'a sign-in was refused: its audit entry could not be written');
          throw new APIError('SERVICE_UNAVAILABLE', {
            code: SIGN_IN_NOT_RECORDED,
            message: 'Nothing was done: the console could not write its audit log. Try again in a moment.',
          });
        }
        // A sign-in that passed a second factor (a code after the password, or a passkey) says so:
        // a password alone proves none, and an operator who has one is asked for it next.
        const secondFactorAt = provesSecondFactor(context?.path)
          ? new Date(deps.clock.now()).toISOString()
          : null;
        const idpAuthenticatedAt = signInMethod === 'sso' ? (deps.idpAuthentication?.read() ?? null) : null;
        return { data: { ...session, signInMethod, ipAddress, secondFactorAt, idpAuthenticatedAt } };
      },
      after: async (session, context) => {
        if (deps.replacedSessionCarry?.()) return;
        await deps.onSessionCreated?.(newSession(session, context?.path));
      },
    },
  } satisfies DatabaseHooks['session'];
}

function newSession(session: { userId: string; token: string }, path: string | undefined): NewSession {
  return { userId: session.userId, token: session.token, path };
}
