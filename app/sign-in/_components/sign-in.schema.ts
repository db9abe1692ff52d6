import * as z from 'zod/mini';
import { failureMessage } from '@/lib/browser-client/failure-message';

export const signInSchema = z.object({
  email: z.pipe(
    z.string().check(z.trim(), z.minLength(1, { error: 'Enter your email address.' })),
    z.email({ error: 'Enter an email address.' }),
  ),
  password: z.string().check(z.minLength(1, { error: 'Enter your password.' })),
});
export type SignInValues = z.infer<typeof signInSchema>;

const SIGN_IN_REFUSED = 'The console refused this sign-in. Reload the page and try again.';

/**
 * What a failed sign-in means for the person at the screen: the console's own words from /api/auth
 * (better-auth's refusals are put in them on the server, lib/server/auth-answers.ts).
 */
export const signInFailureMessage = (error: unknown) =>
  failureMessage(error, {
    otherwise: 'Signing in failed. Try again in a moment.',
    byStatus: {
      401: 'The email or the password is wrong (or this operator was disabled: ask an admin of the console).',
      403: SIGN_IN_REFUSED,
    },
    refused: (status) => `Signing in failed (HTTP ${status}). Try again in a moment.`,
  });

export const SSO_START_FAILED_MESSAGE =
  'Single sign-on could not start. Try again, or sign in with your password.';

/**
 * better-auth redirects a failed single sign-on back with `?error=`: anyone can write one into a
 * link, so the page names the cases it knows and never shows the parameter itself.
 */
export function ssoErrorMessage(error: string | undefined): string | null {
  if (!error) return null;
  if (error === 'BANNED_USER' || error === 'banned')
    return 'This operator is disabled. Ask an admin of the console.';
  if (/^audit_unavailable$/i.test(error)) {
    return 'Nothing was done: the console could not write its audit log, so it signed nobody in. Try again in a moment.';
  }
  if (/signup_disabled|sign_up_disabled/i.test(error)) {
    return 'Single sign-on worked, but you are not an operator of this console yet. Ask an admin to add you.';
  }
  return 'Single sign-on did not complete. Try again, or sign in with your password.';
}

/** What a refused second-factor code means, in the console's words from /api/auth. */
export const secondFactorFailureMessage = (error: unknown) =>
  failureMessage(error, {
    otherwise: 'Checking the code failed. Try again in a moment.',
    refused: (status) => `Checking the code failed (HTTP ${status}). Try again in a moment.`,
  });

/**
 * What a failed passkey sign-in means: the authenticator's refusal (no answer), or the sign-in's
 * own words by status, whatever /api/auth said.
 */
export const passkeySignInFailureMessage = (error: unknown) =>
  failureMessage(error, {
    otherwise: 'Signing in with a passkey failed. Try again in a moment.',
    consoleWords: false,
    byStatus: {
      401: 'That passkey did not sign you in (it may have been removed, or this operator disabled). Try again, or use your password.',
      403: SIGN_IN_REFUSED,
    },
    refused: (status) => `Signing in with a passkey failed (HTTP ${status}). Try again in a moment.`,
  });
