import { describe, expect, it } from 'vitest';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError } from '@/lib/browser-client/console-client';
import { changePasswordFailureMessage } from './use-change-password';

describe('changePasswordFailureMessage', () => {
  it.each([
    [
      ConsoleApiError.refused(400, { code: 'invalid_request', message: 'The current password is wrong.' }),
      'The current password is wrong.',
    ],
    [
      ConsoleApiError.refused(429, { code: 'rate_limited', message: 'retry in 30 s', retryAfterSeconds: 30 }),
      'Too many attempts. Wait a minute, then try again.',
    ],
    [ConsoleApiError.refused(401, undefined), 'The password was not changed (HTTP 401).'],
    [new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE), CONSOLE_UNREACHABLE_MESSAGE],
    [new Error('internal detail'), 'The password was not changed.'],
  ])('%o → %s', (error, message) => {
    expect(changePasswordFailureMessage(error)).toBe(message);
  });
});
