import { describe, expect, it } from 'vitest';
import { confirmsTyped } from './confirm-dialog.utils';

describe('confirmsTyped', () => {
  it.each([
    ['id', 'acme', 'acme', true],
    ['id', 'Acme', 'acme', false],
    ['id', 'acme ', 'acme', false],
    ['id', 'acm', 'acme', false],
    ['id', '', '', false],
    ['count', '12', '12', true],
    ['count', ' 12 ', '12', true],
    ['count', '13', '12', false],
    ['count', '', '12', false],
    ['environment', 'Customer ', 'Customer', true],
    ['environment', 'customer', 'Customer', false],
  ] as const)('%s: %j for %j: %s', (kind, typed, value, expected) => {
    expect(confirmsTyped({ kind, value }, typed)).toBe(expected);
  });
});
