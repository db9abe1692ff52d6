import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimitCounters, type LimitCounters } from '@/lib/rate-limit/counters';
import { reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { failureGateOf, SignInLimiter, signInKeys, ssoCallbackKey } from './sign-in-limiter';

describe('SignInLimiter, counting in this process', () => {
  // Windows are measured with Date.now and ended with timers: both are the test's to move.
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  function limiter(max = 3, windowSeconds = 60) {
    const counters = createLimitCounters({ redisUrl: null, namespace: 'unit' });
    const instance = new SignInLimiter({ max, windowSeconds }, counters);
    return { instance, advance: (seconds: number) => vi.advanceTimersByTime(seconds * 1000) };
  }

  it('allows max attempts per window, then says when to retry', async () => {
    const { instance, advance } = limiter(3, 60);
    const keys = signInKeys('Ann@Example.com', '10.0.0.1');
    for (let i = 0; i < 3; i++) expect(await instance.attempt(keys)).toEqual({ allowed: true });
    advance(20);
    expect(await instance.attempt(keys)).toEqual({
      allowed: false,
      retryAfterSeconds: 40,
      firstRefusal: true,
    });
    advance(40);
    expect(await instance.attempt(keys)).toEqual({ allowed: true });
  });

  it('counts per email whatever address the client comes from', async () => {
    const { instance } = limiter(2);
    expect((await instance.attempt(signInKeys('ann@example.com', '1.1.1.1'))).allowed).toBe(true);
    expect((await instance.attempt(signInKeys('ANN@example.com ', '2.2.2.2'))).allowed).toBe(true);
    expect((await instance.attempt(signInKeys('ann@example.com', '3.3.3.3'))).allowed).toBe(false);
    expect((await instance.attempt(signInKeys('bob@example.com', '4.4.4.4'))).allowed).toBe(true);
  });

  it('counts per client address across emails, and per /64 for IPv6', async () => {
    const { instance } = limiter(2);
    expect((await instance.attempt(signInKeys('a@example.com', '1.1.1.1'))).allowed).toBe(true);
    expect((await instance.attempt(signInKeys('b@example.com', '1.1.1.1'))).allowed).toBe(true);
    expect((await instance.attempt(signInKeys('c@example.com', '1.1.1.1'))).allowed).toBe(false);
    expect(signInKeys(null, '2001:db8:1:2::9')).toEqual(signInKeys(null, '2001:db8:1:2:ffff::1'));
    expect(signInKeys(null, '2001:db8:1:2::9')).not.toEqual(signInKeys(null, '2001:db8:1:3::9'));
  });

  it('does not count refused attempts, and flags only the first refusal of a window', async () => {
    const { instance, advance } = limiter(1, 10);
    const keys = signInKeys('a@example.com', null);
    expect((await instance.attempt(keys)).allowed).toBe(true);
    const refusals = [];
    for (let i = 0; i < 5; i++) refusals.push(await instance.attempt(keys));
    expect(refusals.map((verdict) => !verdict.allowed && verdict.firstRefusal)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    advance(10);
    expect((await instance.attempt(keys)).allowed).toBe(true);
    expect(await instance.attempt(keys)).toMatchObject({ allowed: false, firstRefusal: true });
  });

  it('lets one failure per client key and window through its gate, with or without a limiter', async () => {
    const { instance, advance } = limiter(3, 30);
    const key = ssoCallbackKey('10.0.0.1');
    for (const [gate, windowSeconds] of [
      [instance.failures, 30],
      [failureGateOf(null), 60],
    ] as const) {
      const firsts = [];
      for (let i = 0; i < 4; i++) firsts.push(await gate.first(key));
      expect(firsts).toEqual([true, false, false, false]);
      expect(await gate.first(ssoCallbackKey('10.0.0.2'))).toBe(true);
      advance(windowSeconds);
      expect(await gate.first(key)).toBe(true);
    }
  });

  it('counts SSO callbacks apart from the same client’s sign-ins', async () => {
    const { instance } = limiter(1);
    expect((await instance.attempt([ssoCallbackKey('10.0.0.1')])).allowed).toBe(true);
    expect((await instance.attempt(signInKeys(null, '10.0.0.1'))).allowed).toBe(true);
    expect((await instance.attempt([ssoCallbackKey('10.0.0.1')])).allowed).toBe(false);
    expect(ssoCallbackKey(null)).not.toEqual(ssoCallbackKey('10.0.0.1'));
  });

  it('forgets a window when it ends: a flood of fresh keys holds no memory past its window', async () => {
    const { instance, advance } = limiter(1, 60);
    for (let i = 0; i < 1_000; i++) await instance.attempt(signInKeys(`user${i}@example.com`, null));
    expect(vi.getTimerCount()).toBeGreaterThanOrEqual(1_000);
    advance(60);
    expect(vi.getTimerCount()).toBe(0);
    expect((await instance.attempt(signInKeys('user999@example.com', null))).allowed).toBe(true);
  });
});

// Two limiters over two Redis connections are two console instances: what one counts, the other sees.
const redisUrl = await reachableTestRedis();

describe.skipIf(!redisUrl)('SignInLimiter, counting in Redis', () => {
  const counters: LimitCounters[] = [];
  afterAll(async () => {
    for (const counter of counters) await counter.close();
  });

  async function instance(namespace: string) {
    const counter = createLimitCounters({ redisUrl, namespace });
    counters.push(counter);
    await counter.ready();
    return new SignInLimiter({ max: 5, windowSeconds: 60 }, counter);
  }

  it('counts attempts spread over two instances once: the sixth is refused on either', async () => {
    const namespace = testNamespace('sign-in');
    const [a, b] = [await instance(namespace), await instance(namespace)];
    const keys = signInKeys('spread@example.com', null);
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await (i % 2 === 0 ? a : b).attempt(keys));
    expect(verdicts.map((verdict) => verdict.allowed)).toEqual([true, true, true, true, true, false]);
    expect(verdicts[5]).toMatchObject({ allowed: false, firstRefusal: true });
    // The window's first refusal was taken: the other instance does not audit it again.
    expect(await a.attempt(keys)).toMatchObject({ allowed: false, firstRefusal: false });
    // Another email is counted on its own.
    expect((await b.attempt(signInKeys('other@example.com', null))).allowed).toBe(true);
  });
});
