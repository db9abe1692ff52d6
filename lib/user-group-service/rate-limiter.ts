/**
 * The per-API-key rate limit, counted where lib/rate-limit puts it: in this process, or in Redis
 * when the service is given a REDIS_URL, so that N instances behind a balancer allow the rate once,
 * not N times.
 *
 * A key may spend `perSecond` requests per second (per window of whole seconds for rates under
 * 1/s) and, beyond that, `burst - perSecond` more per minute to absorb bursts: at once up to `burst`,
 * sustained about `perSecond` (rate-limiter-flexible's BurstyRateLimiter: fixed windows, which a
 * shared store counts atomically, instead of a token bucket).
 */
import { BurstyRateLimiter, type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitCounters } from '../rate-limit/counters';

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 200 };

/** How often the burst allowance comes back. */
export const BURST_WINDOW_SECONDS = 60;

export interface RateLimiter {
  /** Takes one request for this key: 0 when allowed, else the whole seconds to wait (≥ 1). */
  take(key: string): Promise<number>;
}

export function createRateLimiter(limit: RateLimit, counters: LimitCounters): RateLimiter {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) {
    throw new Error('rate limit: perSecond must be > 0 and burst ≥ 1');
  }
  // A slow rate (0.25/s) is one request per window of 4 s.
  const durationSeconds = Math.max(1, Math.ceil(1 / limit.perSecond));
  const points = Math.max(1, Math.floor(limit.perSecond * durationSeconds));
  const steady = counters.window('api-key', { points, durationSeconds });
  const burstPoints = Math.floor(limit.burst) - points;
  const limiter: Pick<RateLimiterAbstract, 'consume'> =
    burstPoints > 0
      ? new BurstyRateLimiter(
          steady,
          counters.window('api-key-burst', { points: burstPoints, durationSeconds: BURST_WINDOW_SECONDS }),
        )
      : steady;

  return {
    async take(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (reason) {
        if (!(reason instanceof RateLimiterRes)) throw reason;
        return Math.max(1, Math.ceil(reason.msBeforeNext / 1000));
      }
    },
  };
}
