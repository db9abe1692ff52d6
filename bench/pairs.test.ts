import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load';
import { measureInterleaved, median, p50Latency, spread } from './pairs';

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

describe('measureInterleaved', () => {
  /** A run that records when it ran and answers the p50s it is given, one per measured call. */
  function recorded(name: string, calls: string[], p50s: number[]) {
    return async (seconds: number): Promise<LoadResult> => {
      calls.push(`${name} ${seconds}s`);
      const p50Ms = seconds === 0.5 ? 99 : (p50s.shift() ?? Number.NaN);
      return { requestsPerSecond: 1, p50Ms, p99Ms: p50Ms, requests: 1, non2xx: 0, errors: 0 };
    };
  }

  it('warms each figure up, then goes round the figures pair by pair, the order alternating', async () => {
    const calls: string[] = [];
    const figures = await measureInterleaved(
      [
        { baseline: recorded('a-base', calls, [1, 1, 1]), scenario: recorded('a-scen', calls, [10, 20, 30]) },
        { baseline: recorded('b-base', calls, [2, 2, 2]), scenario: recorded('b-scen', calls, [4, 6, 100]) },
      ],
      p50Latency,
      { pairs: 3, seconds: 1, warmupSeconds: 0.5 },
    );
    expect(calls).toEqual([
      'a-base 0.5s',
      'a-scen 0.5s',
      'b-base 0.5s',
      'b-scen 0.5s',
      'a-base 1s',
      'a-scen 1s',
      'b-base 1s',
      'b-scen 1s',
      'a-scen 1s',
      'a-base 1s',
      'b-scen 1s',
      'b-base 1s',
      'a-base 1s',
      'a-scen 1s',
      'b-base 1s',
      'b-scen 1s',
    ]);
    // Warm-up answers (99) count for nothing; each figure is the median of its own pairs.
    expect(figures.map((figure) => figure.ratio)).toEqual([20, 3]);
    expect(figures.map((figure) => figure.pairs.length)).toEqual([3, 3]);
  });
});
