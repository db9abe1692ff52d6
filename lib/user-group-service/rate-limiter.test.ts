import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter';

describe('createRateLimiter', () => {
  it('allows a burst, then refills at the rate, per key', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3 }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now = 500; // half a second refills one request at 2/s
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    now = 60_000; // never beyond the burst
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      0, 0, 0, 1,
    ]);
  });

  it('answers whole seconds of Retry-After for slow rates', () => {
    const limiter = createRateLimiter({ perSecond: 0.25, burst: 1 }, () => 0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(4);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => createRateLimiter({ perSecond: 0, burst: 10 })).toThrow();
    expect(() => createRateLimiter({ perSecond: 10, burst: 0 })).toThrow();
  });
});
