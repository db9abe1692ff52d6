import 'server-only';
import type { ConsoleErrorCode } from '@/lib/console-api/error-body';
import { ConsoleError } from '@/lib/console-error';
import { logger } from '@/lib/server/logger';

/** The /api/auth endpoints whose answers reach the browser (lib/auth/proxy/route.ts). */
export type AuthAnswerKind =
  | 'sign-in'
  | 'sso-start'
  | 'sign-out'
  | 'change-password'
  | 'second-factor'
  | 'passkey-options'
  | 'passkey-sign-in';

type Words = { code: ConsoleErrorCode; message: string; fields?: Record<string, string> };

const WRONG_EMAIL_OR_PASSWORD =
  'The email or the password is wrong (or this operator was disabled: ask an admin of the console).';
const SIGN_IN_EXPIRED =
  'This sign-in has expired or had too many wrong codes. Start again with your password.';

/**
 * better-auth's refusals, by its own code, in the console's words. A disabled operator's right
 * password reads as a wrong one (the log keeps which it was).
 */
const wordsOf: Record<AuthAnswerKind, Record<string, Words>> = {
  'sign-in': {
    INVALID_EMAIL_OR_PASSWORD: { code: 'unauthenticated', message: WRONG_EMAIL_OR_PASSWORD },
    BANNED_USER: { code: 'unauthenticated', message: WRONG_EMAIL_OR_PASSWORD },
    INVALID_EMAIL: {
      code: 'invalid_request',
      message: 'Enter an email address.',
      fields: { email: 'Enter an email address.' },
    },
  },
  'second-factor': {
    INVALID_CODE: {
      code: 'unauthenticated',
      message: 'That code is not the one your app shows now. Check the phone’s clock and try the next code.',
    },
    INVALID_BACKUP_CODE: { code: 'unauthenticated', message: 'That is not one of your unused backup codes.' },
    ACCOUNT_TEMPORARILY_LOCKED: {
      code: 'rate_limited',
      message:
        'Too many wrong codes: this account is locked for 15 minutes. Ask an admin if you have lost your app.',
    },
    TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: { code: 'unauthenticated', message: SIGN_IN_EXPIRED },
    INVALID_TWO_FACTOR_COOKIE: { code: 'unauthenticated', message: SIGN_IN_EXPIRED },
  },
  'change-password': {
    INVALID_PASSWORD: {
      code: 'invalid_request',
      message: 'The current password is wrong.',
      fields: { currentPassword: 'is not your current password' },
    },
    PASSWORD_TOO_SHORT: {
      code: 'invalid_request',
      message: 'The new password is too short.',
      fields: { newPassword: 'is too short' },
    },
    PASSWORD_TOO_LONG: {
      code: 'invalid_request',
      message: 'The new password is too long.',
      fields: { newPassword: 'is too long' },
    },
    CREDENTIAL_ACCOUNT_NOT_FOUND: {
      code: 'conflict',
      message: 'You sign in through single sign-on: you have no console password.',
    },
  },
  'passkey-sign-in': {
    // Any refusal (no such passkey, a disabled operator's, a failed check) reads the same.
    PASSKEY_REFUSED: {
      code: 'unauthenticated',
      message: 'That passkey did not sign you in. Try again, or use your password.',
    },
  },
  'passkey-options': {},
  'sign-out': {},
  'sso-start': {},
};

/** When better-auth's code is not one of the above: what failed, in the console's words. */
const failedMessage: Record<AuthAnswerKind, string> = {
  'sign-in': 'Signing in failed. Try again in a moment.',
  'second-factor': 'Checking the code failed. Try again in a moment.',
  'change-password': 'The password was not changed. Try again in a moment.',
  'sign-out': 'Signing out failed. Try again in a moment.',
  'sso-start': 'Single sign-on could not start. Try again, or sign in with your password.',
  'passkey-options': 'Signing in with a passkey could not start. Try again, or use your password.',
  'passkey-sign-in': 'That passkey did not sign you in. Try again, or use your password.',
};

function codeOfStatus(status: number): ConsoleErrorCode {
  if (status === 400) return 'invalid_request';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  return 'internal';
}

/**
 * What of a successful answer the browser may read: whether a code is asked next, and where single
 * sign-on goes. better-auth's `token` (the session's, which the HttpOnly cookie keeps from page
 * scripts) and its `user` record stay on the server.
 */
const shownFields = ['redirect', 'url', 'twoFactorRedirect', 'success', 'status'] as const;

/**
 * better-auth's answer as the browser gets it: a refusal in the console's documented error shape
 * and words (better-auth's code and message go to the log under the request id), a success without
 * the session token. Headers (the cookies set or cleared) pass as they are.
 */
export async function inConsoleWords(kind: AuthAnswerKind, response: Response, requestId: string) {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status < 400 && !contentType.includes('application/json')) return response;
  // A passkey ceremony's options (challenge, relying party, allowed credentials) are for the browser.
  if (response.status < 400 && kind === 'passkey-options') return response;
  const body = await response
    .clone()
    .json()
    .catch(() => null);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  if (response.status < 400) {
    const shown =
      body && typeof body === 'object'
        ? Object.fromEntries(shownFields.flatMap((key) => (key in body ? [[key, body[key]]] : [])))
        : {};
    return new Response(JSON.stringify(shown), { status: response.status, headers });
  }
  const authCode = typeof body?.code === 'string' ? body.code : undefined;
  logger.info(
    {
      requestId,
      auth: {
        status: response.status,
        code: authCode,
        message: typeof body?.message === 'string' ? body.message.slice(0, 200) : undefined,
      },
    },
    'better-auth refused a request',
  );
  const retryAfter = Number(response.headers.get('retry-after'));
  const error = authRefusal(kind, authCode, response.status, requestId, retryAfter);
  return new Response(JSON.stringify(error.body), { status: error.status, headers });
}

/** A refusal of an /api/auth endpoint, by better-auth's code (or the status), in the console's words. */
export function authRefusal(
  kind: AuthAnswerKind,
  authCode: string | undefined,
  status: number,
  requestId: string,
  retryAfterSeconds?: number,
): ConsoleError {
  const words = (authCode && wordsOf[kind][authCode]) || {
    code: codeOfStatus(status),
    message: failedMessage[kind],
  };
  return new ConsoleError(words.code, words.message, {
    ...(words.fields ? { fields: words.fields } : {}),
    ...(retryAfterSeconds && Number.isInteger(retryAfterSeconds) && retryAfterSeconds > 0
      ? { retryAfterSeconds }
      : {}),
    requestId,
  });
}
