/**
 * A token bucket per API key, in memory. It is per process: N instances behind a balancer allow N
 * times the rate. Buckets refill continuously at `perSecond` up to `burst`.
 */

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 200 };

export interface RateLimiter {
  /** Takes one token for this key: 0 when allowed, else the whole seconds to wait (≥ 1). */
  take(key: string): number;
}

export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): RateLimiter {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) {
    throw new Error('rate limit: perSecond must be > 0 and burst ≥ 1');
  }
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();

  return {
    take(key) {
      const time = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: limit.burst, updatedAt: time };
        buckets.set(key, bucket);
      } else {
        const refill = ((time - bucket.updatedAt) / 1000) * limit.perSecond;
        bucket.tokens = Math.min(limit.burst, bucket.tokens + refill);
        bucket.updatedAt = time;
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
    },
  };
}
