import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeFieldErrors, fieldErrorKey, fieldErrors, fieldErrorsFor } from './field-errors';

const NAMES = ['user_group_id', 'name', 'mapping', 'properties'] as const;

describe('fieldErrorKey', () => {
  it.each([
    [['user_group_id'], 'user_group_id'],
    [['mapping', 'sales'], 'mapping.sales'],
    [['properties', 0], 'properties.0'],
    [[], '_'],
  ] as const)('%j → %s', (path, key) => {
    expect(fieldErrorKey(path)).toBe(key);
  });
});

describe('fieldErrors', () => {
  it('keeps the first message of each path, `_` for the body', () => {
    const schema = z.object({
      name: z.string().min(2, { error: 'too short' }).max(1, { error: 'too long' }),
    });
    expect(fieldErrors(schema.safeParse({ name: 'x' }).error as z.ZodError)).toEqual({ name: 'too short' });
    expect(fieldErrors(schema.safeParse('not an object').error as z.ZodError)).toEqual({
      _: expect.any(String),
    });
  });

  it('reads as one line', () => {
    expect(describeFieldErrors({ _: 'not JSON', name: 'too long' })).toBe('not JSON; name: too long');
  });
});

describe('fieldErrorsFor', () => {
  it('keeps only the form’s own fields', () => {
    expect(fieldErrorsFor({ user_group_id: 'must not be empty', current_token: 'x', _: 'y' }, NAMES)).toEqual(
      [{ name: 'user_group_id', message: 'must not be empty' }],
    );
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

  it('reads back what fieldErrors wrote', () => {
    const schema = z.object({ mapping: z.record(z.string(), z.string({ error: 'must be a string' })) });
    const fields = fieldErrors(schema.safeParse({ mapping: { sales: 1 } }).error as z.ZodError);
    expect(fieldErrorsFor(fields, NAMES)).toEqual([{ name: 'mapping', message: 'sales: must be a string' }]);
  });
});
