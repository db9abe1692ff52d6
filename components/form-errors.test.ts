import { describe, expect, it } from 'vitest';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { formErrorMessage, serverFieldErrors, UNEXPECTED_ERROR_MESSAGE } from './form-errors';

const NAMES = ['user_group_id', 'name', 'mapping', 'properties'] as const;

describe('errors from a call', () => {
  it('uses a ConsoleApiError’s message and fields as they are', () => {
    const error = ConsoleApiError.refused(429, {
      code: 'rate_limited',
      message: 'Too many requests: retry in 5 s.',
      fields: { name: 'too long', 'mapping.sales': 'must be a data source id' },
      retryAfterSeconds: 5,
    });
    expect(formErrorMessage(error)).toBe('Too many requests: retry in 5 s.');
    expect(serverFieldErrors(error, NAMES)).toEqual([
      { name: 'name', message: 'too long' },
      { name: 'mapping', message: 'sales: must be a data source id' },
    ]);
  });

  it('keeps a route’s words and the client’s for a refusal without them', () => {
    expect(formErrorMessage(ConsoleApiError.refused(502, undefined))).toBe(
      'The console answered 502 without an explanation.',
    );
    expect(formErrorMessage(ConsoleApiError.refused(429, undefined))).toBe(
      'The console answered 429 without an explanation.',
    );
  });

  it('never shows the text of an unexpected error', () => {
    const error = new Error('TypeError: internal detail');
    expect(formErrorMessage(error)).toBe(UNEXPECTED_ERROR_MESSAGE);
    expect(formErrorMessage(error, 'The console could not be reached.')).toBe(
      'The console could not be reached.',
    );
    expect(serverFieldErrors(error, NAMES)).toEqual([]);
  });
});
