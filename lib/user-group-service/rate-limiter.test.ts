import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimitCounters, type LimitCounters } from '../rate-limit/counters';
import { reachableTestRedis, testNamespace } from '../testing/test-redis';
import { createRateLimiter } from './rate-limiter';

const inProcess = () => createLimitCounters({ redisUrl: null, namespace: 'unit' });

describe('createRateLimiter, counting in this process', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('allows perSecond per second plus a burst allowance per minute, per key', async () => {
    const limiter = createRateLimiter({ perSecond: 2, burst: 3 }, inProcess());
    const take = async (key: string, times: number) => {
      const answers = [];
      for (let i = 0; i < times; i++) answers.push(await limiter.take(key));
      return answers;
    };
    expect(await take('a', 4)).toEqual([0, 0, 0, 1]);
    expect(await limiter.take('b')).toBe(0);
    vi.advanceTimersByTime(1_000); // a new second: the rate again, the burst stays spent
    expect(await take('a', 3)).toEqual([0, 0, 1]);
    vi.advanceTimersByTime(60_000); // never more than the burst at once
    expect(await take('a', 4)).toEqual([0, 0, 0, 1]);
  });

  it('answers whole seconds of Retry-After for slow rates', async () => {
    const limiter = createRateLimiter({ perSecond: 0.25, burst: 1 }, inProcess());
    expect(await limiter.take('a')).toBe(0);
    expect(await limiter.take('a')).toBe(4);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => createRateLimiter({ perSecond: 0, burst: 10 }, inProcess())).toThrow();
    expect(() => createRateLimiter({ perSecond: 10, burst: 0 }, inProcess())).toThrow();
  });
});

const redisUrl = await reachableTestRedis();

describe.skipIf(!redisUrl)('createRateLimiter, counting in Redis', () => {
  const counters: LimitCounters[] = [];
  afterAll(async () => {
    for (const counter of counters) await counter.close();
  });

  it('holds one limit across two instances', async () => {
    const namespace = testNamespace('api-key');
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const counter = createLimitCounters({ redisUrl, namespace });
        counters.push(counter);
        await counter.ready();
        return createRateLimiter({ perSecond: 1, burst: 30 }, counter);
      }),
    );
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await (i % 2 === 0 ? a : b)?.take('key_shared')) === 0) allowed++;
    // 30 at once; each second the loop may straddle adds one. Per process it would be 60.
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(allowed).toBeLessThanOrEqual(33);
  });
});
