import { describe, expect, it } from 'vitest';
import { median, spread } from './pairs';

describe('median and spread', () => {
  it('take the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('spread is the range over the median, so one slow run shows', () => {
    expect(spread([10, 10, 10])).toBe(0);
    expect(spread([8, 10, 12])).toBeCloseTo(0.4);
  });
});
