import { describe, expect, it } from 'vitest';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError } from './console-client';
import { type FailureWords, failureMessage } from './failure-message';

const words: FailureWords = {
  otherwise: 'It failed.',
  byStatus: { 401: 'Not you.' },
  refused: (status) => `It failed (HTTP ${status}).`,
};
const refused = ConsoleApiError.refused;

describe('failureMessage', () => {
  it.each([
    ['anything else, never its text', new Error('TypeError: detail'), 'It failed.'],
    [
      'no answer: the client’s words',
      new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE),
      CONSOLE_UNREACHABLE_MESSAGE,
    ],
    [
      'the authenticator’s refusal',
      new ConsoleApiError('invalid_request', 'No passkey was used.'),
      'No passkey was used.',
    ],
    [
      'a rate limit with a delay',
      refused(429, { code: 'rate_limited', message: 'retry in 17 s', retryAfterSeconds: 17 }),
      'Too many attempts. Wait 17 seconds, then try again.',
    ],
    [
      'a rate limit unexplained',
      refused(429, undefined),
      'Too many attempts. Wait 60 seconds, then try again.',
    ],
    [
      'a 429 whose words say more than a delay',
      refused(429, { code: 'rate_limited', message: 'Locked for 15 minutes.' }),
      'Locked for 15 minutes.',
    ],
    ['the console’s words', refused(401, { code: 'unauthenticated', message: 'Wrong code.' }), 'Wrong code.'],
    ['the form’s words for a status', refused(401, undefined), 'Not you.'],
    ['the form’s words for the rest', refused(502, undefined), 'It failed (HTTP 502).'],
  ])('%s', (_case, error, message) => {
    expect(failureMessage(error, words)).toBe(message);
  });

  it('falls back to the client’s message where the form has no words for a status', () => {
    expect(failureMessage(refused(502, undefined), { otherwise: 'x' })).toBe(
      'The console answered 502 without an explanation.',
    );
  });

  it('words every refusal by its status when the console’s words are not shown', () => {
    const own = { ...words, consoleWords: false };
    expect(failureMessage(refused(401, { code: 'unauthenticated', message: 'Theirs.' }), own)).toBe(
      'Not you.',
    );
    expect(failureMessage(refused(429, { code: 'rate_limited', message: 'Theirs.' }), own)).toBe(
      'Too many attempts. Wait 60 seconds, then try again.',
    );
  });

  it('lets a form word a rate limit its own way', () => {
    const error = refused(429, {
      code: 'rate_limited',
      message: 'Too many lookups: retry in 5 s.',
      retryAfterSeconds: 5,
    });
    expect(failureMessage(error, { otherwise: 'x', rateLimited: (failure) => failure.message })).toBe(
      'Too many lookups: retry in 5 s.',
    );
  });
});
