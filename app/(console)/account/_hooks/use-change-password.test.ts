import { describe, expect, it } from 'vitest';
import { AuthRequestError } from '@/lib/browser-client/auth-client';
import { CONSOLE_UNREACHABLE_MESSAGE } from '@/lib/browser-client/console-client';
import { changePasswordFailureMessage } from './use-change-password';

describe('changePasswordFailureMessage', () => {
  it.each([
    [
      new AuthRequestError(400, { code: 'invalid_request', message: 'The current password is wrong.' }),
      'The current password is wrong.',
    ],
    [
      new AuthRequestError(429, { code: 'rate_limited', message: 'retry in 30 s', retryAfterSeconds: 30 }),
      'Too many attempts. Wait a minute, then try again.',
    ],
    [new AuthRequestError(401), 'The password was not changed (HTTP 401).'],
    [new AuthRequestError(null), CONSOLE_UNREACHABLE_MESSAGE],
    [new Error('internal detail'), 'The password was not changed.'],
  ])('%o → %s', (error, message) => {
    expect(changePasswordFailureMessage(error)).toBe(message);
  });
});
