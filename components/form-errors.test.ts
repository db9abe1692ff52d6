import { describe, expect, it } from 'vitest';
import { ConsoleApiError } from '@/lib/console-api/client';
import { fieldErrorsFor, formErrorMessage, serverFieldErrors, UNEXPECTED_ERROR_MESSAGE } from './form-errors';

const NAMES = ['user_group_id', 'name', 'mapping', 'properties'] as const;

describe('fieldErrorsFor', () => {
  it('keeps only the form’s own fields', () => {
    expect(fieldErrorsFor({ user_group_id: 'must not be empty', current_token: 'x' }, NAMES)).toEqual([
      { name: 'user_group_id', message: 'must not be empty' },
    ]);
  });

  it('maps nested keys to their top-level field and says which entry', () => {
    expect(fieldErrorsFor({ 'mapping.sales': 'must be a data source id' }, NAMES)).toEqual([
      { name: 'mapping', message: 'sales: must be a data source id' },
    ]);
    expect(fieldErrorsFor({ 'properties[0]': 'bad' }, NAMES)).toEqual([
      { name: 'properties', message: '[0]: bad' },
    ]);
  });

  it('keeps the first message of a field', () => {
    expect(fieldErrorsFor({ 'mapping.a': 'first', 'mapping.b': 'second' }, NAMES)).toEqual([
      { name: 'mapping', message: 'a: first' },
    ]);
  });

  it('returns nothing without fields', () => {
    expect(fieldErrorsFor(undefined, NAMES)).toEqual([]);
  });
});

describe('errors from a call', () => {
  it('uses a ConsoleApiError’s message and fields as they are', () => {
    const error = new ConsoleApiError(
      'rate_limited',
      'Too many requests: retry in 5 s.',
      { name: 'too long' },
      5,
    );
    expect(formErrorMessage(error)).toBe('Too many requests: retry in 5 s.');
    expect(serverFieldErrors(error, NAMES)).toEqual([{ name: 'name', message: 'too long' }]);
  });

  it('never shows the text of an unexpected error', () => {
    const error = new Error('TypeError: internal detail');
    expect(formErrorMessage(error)).toBe(UNEXPECTED_ERROR_MESSAGE);
    expect(serverFieldErrors(error, NAMES)).toEqual([]);
  });
});
