import { describe, expect, it } from 'vitest';
import { confirmsTyped, typedFeedback } from './confirm-dialog.utils';

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

describe('typedFeedback', () => {
  it.each([
    ['id', '', 'acme-corp', null],
    ['id', 'acme', 'acme-corp', 'Does not match acme-corp yet'],
    ['id', 'acme-corp', 'acme-corp', 'Matches acme-corp'],
    ['id', 'acme-crop', 'acme-corp', 'Does not match acme-corp: character 7 differs'],
    ['id', 'Acme', 'acme-corp', 'Does not match acme-corp: capitals and small letters differ'],
    ['id', 'acme-corp ', 'acme-corp', 'Does not match acme-corp: remove the spaces around it'],
    ['id', 'acme-corps', 'acme-corp', 'Does not match acme-corp: it is longer'],
    ['count', '1', '12', 'Does not match 12 yet'],
    ['count', ' 12 ', '12', 'Matches 12'],
    ['count', '13', '12', 'Does not match 12: character 2 differs'],
    ['environment', 'cust', 'Customer', 'Does not match Customer: capitals and small letters differ'],
  ] as const)('%s: %j for %j: %j', (kind, typed, value, expected) => {
    expect(typedFeedback({ kind, value }, typed)?.text ?? null).toBe(expected);
  });

  it('says a typo is one (read out once typing stops), not a start on the way', () => {
    expect(typedFeedback({ kind: 'id', value: 'acme' }, 'ac')?.state).toBe('on-the-way');
    expect(typedFeedback({ kind: 'id', value: 'acme' }, 'ax')?.state).toBe('typo');
    expect(typedFeedback({ kind: 'id', value: 'acme' }, 'acme')?.state).toBe('matches');
  });
});
