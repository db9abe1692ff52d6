/**
 * Sign-in attempts per window, counted per email address and per client address (the socket's,
 * or a trusted proxy's report of it: lib/config/trusted-proxies.ts). IPv6 clients count per /64, the
 * block one subscriber usually holds. The counts live where lib/rate-limit puts them: in this
 * process, or in Redis when REDIS_URL is set, so that attempts spread over several console
 * instances count once.
 *
 * Refused attempts are not counted: an attempt is checked against every key first and counted only
 * when none is full. A window is forgotten when it ends, so the memory held is what one window's
 * attempts left.
 *
 * Failures nobody signed in to cause (a failed SSO callback, a refused one) are audited through a
 * FailureGate: one entry per client and window, so that a flood of them cannot flood the log.
 */
import { isIPv6 } from 'node:net';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { processWide } from '@/lib/process-wide';
import { createLimitCounters, type LimitCounters } from '@/lib/rate-limit/counters';

export interface SignInLimit {
  max: number;
  windowSeconds: number;
}

export type LimitVerdict =
  | { allowed: true }
  /** `firstRefusal`: the first refused attempt of its window, the one worth an audit entry. */
  | { allowed: false; retryAfterSeconds: number; firstRefusal: boolean };

export class SignInLimiter {
  private readonly attempts: RateLimiterAbstract;
  /** One point per key and window: whoever takes it has the window's first refusal. */
  private readonly refusals: RateLimiterAbstract;
  /** The first unauthenticated failure per client and window: the one worth an audit entry. */
  readonly failures: FailureGate;

  constructor(
    private readonly limit: SignInLimit,
    counters: LimitCounters,
  ) {
    this.attempts = counters.window('sign-in', { points: limit.max, durationSeconds: limit.windowSeconds });
    this.refusals = counters.window('sign-in-refused', { points: 1, durationSeconds: limit.windowSeconds });
    this.failures = new FailureGate(counters, limit.windowSeconds);
  }

  /** Counts one attempt against every key; refused when any key is over its limit. */
  async attempt(keys: readonly string[]): Promise<LimitVerdict> {
    const windows = await Promise.all(keys.map((key) => this.attempts.get(key)));
    const full = keys.flatMap((key, index) => {
      const window = windows[index];
      return window && window.consumedPoints >= this.limit.max ? [{ key, msLeft: window.msBeforeNext }] : [];
    });
    if (full.length === 0) {
      const counted = await Promise.allSettled(keys.map((key) => this.attempts.consume(key)));
      const overtaken = counted.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      if (overtaken.length === 0) return { allowed: true };
      // Another instance filled a window between the check and the count.
      for (const reason of overtaken) if (!(reason instanceof RateLimiterRes)) throw reason;
      full.push(...overtaken.map((reason: RateLimiterRes) => ({ key: '', msLeft: reason.msBeforeNext })));
    }
    const msLeft = Math.max(...full.map((window) => window.msLeft));
    const retryAfterSeconds = Math.max(1, Math.ceil(msLeft / 1000));
    const firsts = await Promise.all(
      full
        .filter((window) => window.key)
        .map((window) =>
          this.refusals
            // The refusal's window ends with the attempts' window it belongs to.
            .consume(window.key, 1, { customDuration: Math.max(1, Math.ceil(window.msLeft / 1000)) })
            .then(
              () => true,
              (reason: unknown) => {
                if (reason instanceof RateLimiterRes) return false;
                throw reason;
              },
            ),
        ),
    );
    return { allowed: false, retryAfterSeconds, firstRefusal: firsts.some(Boolean) };
  }
}

/** One point per key and window: `first` is true for whoever takes it, false until the window ends. */
export class FailureGate {
  private readonly window: RateLimiterAbstract;

  constructor(counters: LimitCounters, windowSeconds: number) {
    this.window = counters.window('sign-in-failed', { points: 1, durationSeconds: windowSeconds });
  }

  first(key: string): Promise<boolean> {
    return this.window.consume(key).then(
      () => true,
      (reason: unknown) => {
        if (reason instanceof RateLimiterRes) return false;
        throw reason;
      },
    );
  }
}

/**
 * The limiter's gate, or with the sign-in limit off one of this process with a 60 s window: turning
 * the limit off is the operator's choice, an audit log anyone may flood without signing in is not.
 */
export function failureGateOf(limiter: SignInLimiter | null): FailureGate {
  if (limiter) return limiter.failures;
  return processWide(
    'sign-in-off-failures',
    () => new FailureGate(createLimitCounters({ redisUrl: null, namespace: 'sign-in-off' }), 60),
  );
}

/** The keys of one attempt: the email (normalised) and the client address when one is known. */
export function signInKeys(email: string | null, clientAddress: string | null): string[] {
  const keys: string[] = [];
  if (email) keys.push(`email:${email.trim().toLowerCase()}`);
  if (clientAddress) keys.push(`client:${clientBlock(clientAddress.trim())}`);
  // Neither is known (a plain `next start` and no email): one shared key rather than none.
  if (keys.length === 0) keys.push('client:unknown');
  return keys;
}

/**
 * The key of an SSO callback: its client's, in a namespace of its own, so that the callbacks of
 * sign-ins through the IdP do not spend the client's password sign-in budget.
 */
export function ssoCallbackKey(clientAddress: string | null): string {
  return `sso-callback:${signInKeys(null, clientAddress).join()}`;
}

function clientBlock(address: string): string {
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const groups = [...head.split(':').filter(Boolean)];
  const tailGroups = tail.split(':').filter(Boolean);
  while (groups.length + tailGroups.length < 8) groups.push('0');
  return `${[...groups, ...tailGroups].slice(0, 4).join(':')}::/64`;
}
