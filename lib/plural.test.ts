import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it.each([
    [0, 'token', '0 tokens'],
    [1, 'token', '1 token'],
    [2, 'token', '2 tokens'],
    [1, 'row', '1 row'],
    [1, 'group', '1 group'],
    [312, 'group', '312 groups'],
    [1_000, 'row', '1,000 rows'],
    [1, 'entry', '1 entry'],
    [3, 'entry', '3 entries'],
    [2, 'match', '2 matches'],
    [2, 'day', '2 days'],
  ])('%d %s → %s', (count, noun, expected) => {
    expect(plural(count, noun)).toBe(expected);
  });

  it('takes an irregular plural when given one', () => {
    expect(plural(1, 'person', 'people')).toBe('1 person');
    expect(plural(4, 'person', 'people')).toBe('4 people');
  });
});
