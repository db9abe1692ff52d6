import { describe, expect, it } from 'vitest';
import { SignInLimiter, signInKeys } from './sign-in-limiter';

function limiter(max = 3, windowSeconds = 60, maxKeys?: number) {
  let now = 1_000_000;
  const instance = new SignInLimiter({ max, windowSeconds }, () => now, maxKeys);
  return { instance, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('SignInLimiter', () => {
  it('allows max attempts per window, then says when to retry', () => {
    const { instance, advance } = limiter(3, 60);
    const keys = signInKeys('Ann@Example.com', '10.0.0.1');
    for (let i = 0; i < 3; i++) expect(instance.attempt(keys)).toEqual({ allowed: true });
    advance(20);
    expect(instance.attempt(keys)).toEqual({ allowed: false, retryAfterSeconds: 40, firstRefusal: true });
    advance(40);
    expect(instance.attempt(keys)).toEqual({ allowed: true });
  });

  it('counts per email whatever address the client comes from', () => {
    const { instance } = limiter(2);
    expect(instance.attempt(signInKeys('ann@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('ANN@example.com ', '2.2.2.2')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('ann@example.com', '3.3.3.3')).allowed).toBe(false);
    expect(instance.attempt(signInKeys('bob@example.com', '4.4.4.4')).allowed).toBe(true);
  });

  it('counts per client address across emails, and per /64 for IPv6', () => {
    const { instance } = limiter(2);
    expect(instance.attempt(signInKeys('a@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('b@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('c@example.com', '1.1.1.1')).allowed).toBe(false);
    expect(signInKeys(null, '2001:db8:1:2::9')).toEqual(signInKeys(null, '2001:db8:1:2:ffff::1'));
    expect(signInKeys(null, '2001:db8:1:2::9')).not.toEqual(signInKeys(null, '2001:db8:1:3::9'));
  });

  it('does not count refused attempts, and flags only the first refusal of a window', () => {
    const { instance, advance } = limiter(1, 10);
    const keys = signInKeys('a@example.com', null);
    expect(instance.attempt(keys).allowed).toBe(true);
    const refusals = Array.from({ length: 5 }, () => instance.attempt(keys));
    expect(refusals.map((verdict) => !verdict.allowed && verdict.firstRefusal)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    advance(10);
    expect(instance.attempt(keys).allowed).toBe(true);
    expect(instance.attempt(keys)).toMatchObject({ allowed: false, firstRefusal: true });
  });

  it('stays bounded under a flood of fresh keys, keeping the newest counts', () => {
    const { instance } = limiter(1, 60, 100);
    for (let i = 0; i < 10_000; i++) instance.attempt(signInKeys(`user${i}@example.com`, null));
    expect(instance.trackedKeys).toBeLessThanOrEqual(100);
    expect(instance.attempt(signInKeys('user9999@example.com', null)).allowed).toBe(false);
  });
});
