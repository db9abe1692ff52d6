/**
 * The browser's side of /api/auth, through better-auth's own client, for the endpoints the console
 * lets through (lib/auth/auth-route.ts): email sign-in, the start of single sign-on, sign-out and
 * password change. Safe in the browser: it imports no server code.
 *
 * It never asks for the session. get-session is closed (404), since its answer carries the session
 * token the HttpOnly cookie keeps from scripts, and the server renders who is signed in. So nothing
 * here reads `useSession` or calls `getSession`, and the client itself is not exported.
 */
import { createAuthClient } from 'better-auth/client';
import * as z from 'zod/mini';
import { consoleErrorBodySchema } from '@/lib/console-api/error-body';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError } from './console-client';

/** The single sign-on provider's id on the server (genericOAuth `providerId`). */
const SSO_PROVIDER_ID = 'oidc';

function createConsoleAuthClient() {
  return createAuthClient({
    // The console's own origin, whatever BETTER_AUTH_URL or BASE_URL a bundler lets through.
    baseURL: window.location.origin,
    basePath: '/api/auth',
    // No redirect on its own: the forms navigate with a full load, to a URL they have checked.
    disableDefaultFetchPlugins: true,
    fetchOptions: { cache: 'no-store' },
  });
}

let client: ReturnType<typeof createConsoleAuthClient> | undefined;

/** Made on the first call, in the browser: rendering a form on the server creates no client. */
function authClient() {
  client ??= createConsoleAuthClient();
  return client;
}

/** Per call: no session signal, since nothing listens for the session (see above). */
const callOptions = { fetchOptions: { disableSignal: true } };

/**
 * How /api/auth explains a refusal, as better-fetch hands it over (the body and the status): the
 * console's `{ error: { code, message, fields, retryAfterSeconds } }`, better-auth's own refusals
 * included, in the console's words (lib/server/auth-answers.ts).
 */
const authRefusalSchema = z.object({
  status: z.number(),
  error: z.catch(z.optional(consoleErrorBodySchema.shape.error), undefined),
});

/** What /api/auth answers when single sign-on starts: the identity provider's address. */
const ssoStartSchema = z.object({ url: z.url({ protocol: /^https?$/ }) });

const UNEXPECTED_ANSWER = 'The console answered in an unexpected shape.';

/** One better-auth call: its data, or a ConsoleApiError saying why not. */
async function settle(call: () => Promise<{ data: unknown; error: unknown }>): Promise<unknown> {
  let answer: { data: unknown; error: unknown };
  try {
    answer = await call();
  } catch {
    throw new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE);
  }
  if (!answer.error) return answer.data;
  const refusal = authRefusalSchema.safeParse(answer.error);
  if (!refusal.success) throw new Error(UNEXPECTED_ANSWER);
  throw ConsoleApiError.refused(refusal.data.status, refusal.data.error);
}

/** What the password step answers when the operator has a second factor: no session yet. */
const secondFactorAskedSchema = z.object({ twoFactorRedirect: z.literal(true) });

export const authApi = {
  /**
   * Signs in with email and password: the answer sets the session cookie, or, for an operator with
   * a second factor, a short-lived challenge cookie, and `secondFactor` says a code is asked next.
   */
  signInWithEmail: async (credentials: {
    email: string;
    password: string;
  }): Promise<{ secondFactor: boolean }> => {
    const data = await settle(() => authClient().signIn.email({ ...credentials, ...callOptions }));
    return { secondFactor: secondFactorAskedSchema.safeParse(data).success };
  },

  /** The sign-in's second step: a code from the authenticator app, or a backup code (used up). */
  verifySecondFactor: async ({
    code,
    kind,
  }: {
    code: string;
    kind: 'totp' | 'backup-code';
  }): Promise<void> => {
    await settle(() =>
      authClient().$fetch(`/two-factor/verify-${kind}`, {
        method: 'POST',
        body: { code },
        ...callOptions.fetchOptions,
      }),
    );
  },

  /**
   * Signs in with a passkey: the server's challenge (its id in a signed cookie), the browser's
   * authenticator (which asks for the PIN, fingerprint or face), then its answer, which sets the
   * session cookie. A refusal of the authenticator's is a ConsoleApiError in the console's words.
   */
  signInWithPasskey: async (): Promise<void> => {
    const options = await settle(() =>
      authClient().$fetch('/passkey/generate-authenticate-options', {
        method: 'GET',
        ...callOptions.fetchOptions,
      }),
    );
    if (typeof options !== 'object' || options === null) throw new Error(UNEXPECTED_ANSWER);
    const { answerWithPasskey } = await import('@/lib/passkeys/browser-ceremony');
    const response = await answerWithPasskey(options as Record<string, unknown>);
    await settle(() =>
      authClient().$fetch('/passkey/verify-authentication', {
        method: 'POST',
        body: { response },
        ...callOptions.fetchOptions,
      }),
    );
  },

  /**
   * Starts single sign-on and returns the identity provider's address to go to. The provider sends
   * the person back to `callbackURL` (a path on this console), or to `errorCallbackURL` with `?error=`.
   */
  startSingleSignOn: async (urls: { callbackURL: string; errorCallbackURL: string }): Promise<string> => {
    const data = await settle(() =>
      authClient().signIn.social({ provider: SSO_PROVIDER_ID, ...urls, ...callOptions }),
    );
    const answer = ssoStartSchema.safeParse(data);
    if (!answer.success) throw new Error(UNEXPECTED_ANSWER);
    return answer.data.url;
  },

  /** Ends the session on the server. */
  signOut: async (): Promise<void> => {
    await settle(() => authClient().signOut(callOptions));
  },

  /** Changes the signed-in operator's password and ends their other sessions. */
  changePassword: async (passwords: { currentPassword: string; newPassword: string }): Promise<void> => {
    await settle(() =>
      authClient().changePassword({ ...passwords, revokeOtherSessions: true, ...callOptions }),
    );
  },
};
