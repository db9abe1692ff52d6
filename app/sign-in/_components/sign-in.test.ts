import { describe, expect, it } from 'vitest';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError } from '@/lib/browser-client/console-client';
import {
  passkeySignInFailureMessage,
  secondFactorFailureMessage,
  signInFailureMessage,
  ssoErrorMessage,
} from './sign-in.schema';

describe('signInFailureMessage', () => {
  it.each([
    [
      ConsoleApiError.refused(429, { code: 'rate_limited', message: 'retry in 17 s', retryAfterSeconds: 17 }),
      'Too many attempts. Wait 17 seconds, then try again.',
    ],
    [ConsoleApiError.refused(429, undefined), 'Too many attempts. Wait 60 seconds, then try again.'],
    [
      ConsoleApiError.refused(401, { code: 'unauthenticated', message: 'The console’s own words.' }),
      'The console’s own words.',
    ],
    [
      ConsoleApiError.refused(401, undefined),
      'The email or the password is wrong (or this operator was disabled: ask an admin of the console).',
    ],
    [
      ConsoleApiError.refused(403, undefined),
      'The console refused this sign-in. Reload the page and try again.',
    ],
    [ConsoleApiError.refused(415, undefined), 'Signing in failed (HTTP 415). Try again in a moment.'],
    [new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE), CONSOLE_UNREACHABLE_MESSAGE],
    [new Error('internal detail'), 'Signing in failed. Try again in a moment.'],
  ])('%o → %s', (error, message) => {
    expect(signInFailureMessage(error)).toBe(message);
  });
});

describe('secondFactorFailureMessage', () => {
  it.each([
    [ConsoleApiError.refused(401, { code: 'unauthenticated', message: 'Not your code.' }), 'Not your code.'],
    [
      ConsoleApiError.refused(429, { code: 'rate_limited', message: 'Locked for 15 minutes.' }),
      'Locked for 15 minutes.',
    ],
    [ConsoleApiError.refused(401, undefined), 'Checking the code failed (HTTP 401). Try again in a moment.'],
    [new Error('internal detail'), 'Checking the code failed. Try again in a moment.'],
  ])('%o → %s', (error, message) => {
    expect(secondFactorFailureMessage(error)).toBe(message);
  });
});

describe('passkeySignInFailureMessage', () => {
  it.each([
    [new ConsoleApiError('invalid_request', 'No passkey was used.'), 'No passkey was used.'],
    [
      ConsoleApiError.refused(401, { code: 'unauthenticated', message: 'That passkey did not sign you in.' }),
      'That passkey did not sign you in (it may have been removed, or this operator disabled). Try again, or use your password.',
    ],
    [
      ConsoleApiError.refused(429, { code: 'rate_limited', message: 'retry in 9 s', retryAfterSeconds: 9 }),
      'Too many attempts. Wait 9 seconds, then try again.',
    ],
    [
      ConsoleApiError.refused(400, { code: 'invalid_request', message: 'Theirs.' }),
      'Signing in with a passkey failed (HTTP 400). Try again in a moment.',
    ],
    [new Error('internal detail'), 'Signing in with a passkey failed. Try again in a moment.'],
  ])('%o → %s', (error, message) => {
    expect(passkeySignInFailureMessage(error)).toBe(message);
  });
});

describe('ssoErrorMessage', () => {
  it.each([
    [undefined, null],
    ['BANNED_USER', 'This operator is disabled. Ask an admin of the console.'],
    [
      'signup_disabled',
      'Single sign-on worked, but you are not an operator of this console yet. Ask an admin to add you.',
    ],
    [
      'AUDIT_UNAVAILABLE',
      'Nothing was done: the console could not write its audit log, so it signed nobody in. Try again in a moment.',
    ],
    ['access_denied', 'Single sign-on did not complete. Try again, or sign in with your password.'],
    [
      'Your account is locked: call 555-0100',
      'Single sign-on did not complete. Try again, or sign in with your password.',
    ],
  ])('%s → %s', (error, message) => {
    expect(ssoErrorMessage(error)).toBe(message);
  });
});
