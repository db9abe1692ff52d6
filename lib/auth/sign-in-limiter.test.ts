import { describe, expect, it } from 'vitest';
import { SignInLimiter, signInKeys } from './sign-in-limiter';

function limiter(max = 3, windowSeconds = 60) {
  let now = 1_000_000;
  const instance = new SignInLimiter({ max, windowSeconds }, () => now);
  return { instance, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('SignInLimiter', () => {
  it('allows max attempts per window, then says when to retry', () => {
    const { instance, advance } = limiter(3, 60);
    const keys = signInKeys('Ann@Example.com', '10.0.0.1');
    for (let i = 0; i < 3; i++) expect(instance.attempt(keys)).toEqual({ allowed: true });
    advance(20);
    expect(instance.attempt(keys)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    advance(40);
    expect(instance.attempt(keys)).toEqual({ allowed: true });
  });

  it('counts per email whatever address the client claims', () => {
    const { instance } = limiter(2);
    expect(instance.attempt(signInKeys('ann@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('ANN@example.com ', '2.2.2.2')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('ann@example.com', '3.3.3.3')).allowed).toBe(false);
    expect(instance.attempt(signInKeys('bob@example.com', '4.4.4.4')).allowed).toBe(true);
  });

  it('counts per client address across emails', () => {
    const { instance } = limiter(2);
    expect(instance.attempt(signInKeys('a@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('b@example.com', '1.1.1.1')).allowed).toBe(true);
    expect(instance.attempt(signInKeys('c@example.com', '1.1.1.1')).allowed).toBe(false);
  });

  it('does not count refused attempts', () => {
    const { instance, advance } = limiter(1, 10);
    const keys = signInKeys('a@example.com', null);
    expect(instance.attempt(keys).allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect(instance.attempt(keys).allowed).toBe(false);
    advance(10);
    expect(instance.attempt(keys).allowed).toBe(true);
  });
});
