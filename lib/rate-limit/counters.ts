/**
 * Where rate limits count: in this process (rate-limiter-flexible's RateLimiterMemory), or in Redis
 * (RateLimiterRedis over ioredis) when a REDIS_URL is given, so that every console or service
 * instance counts against the same limits. The one seam the console's sign-in limiter and the
 * service's per-key limiter build on: they ask for fixed windows by name and never see the store.
 *
 * Redis unreachable: each window falls back to counting in this process (rate-limiter-flexible's
 * insurance limiter), so an outage loosens the limits to per instance instead of refusing everyone
 * or letting everyone through. Connection errors are reported through `onRedisError`, the URL's
 * credentials stripped.
 */
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { redactUrlsInText } from '@/lib/redact-url';

export interface WindowLimit {
  /** What one key may spend per window. */
  points: number;
  durationSeconds: number;
}

export interface LimitCounters {
  /** Fixed windows per key under `name` (a window starts at a key's first point). */
  window(name: string, limit: WindowLimit): RateLimiterAbstract;
  /** True when the counts are in Redis, shared by every instance that uses it. */
  readonly shared: boolean;
  /**
   * Resolves once Redis answers, or after `timeoutMs` (counting per process until it does): until
   * then every count would fall to the insurance limiter. Call it at start, before serving.
   */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface LimitCountersOptions {
  /** redis:// or rediss://; null counts in this process. */
  redisUrl: string | null;
  /** Prefix of every Redis key: one per application sharing a Redis server (tests: one per run). */
  namespace: string;
  onRedisError?: (message: string) => void;
}

export function createLimitCounters(options: LimitCountersOptions): LimitCounters {
  const memory = (name: string, limit: WindowLimit) =>
    new RateLimiterMemory({
      keyPrefix: `${options.namespace}:${name}`,
      points: limit.points,
      duration: limit.durationSeconds,
    });
  if (!options.redisUrl) {
    return { window: memory, shared: false, ready: async () => {}, close: async () => {} };
  }
  // No offline queue: while Redis is unreachable a count fails at once and the insurance limiter
  // answers, instead of a sign-in or an API call waiting for a reconnection.
  const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true; // once per outage, not once per reconnection attempt
    options.onRedisError?.(
      `Redis unreachable, rate limits count per process: ${redactUrlsInText(error.message)}`,
    );
  });
  redis.on('ready', () => {
    reported = false;
  });
  return {
    window: (name, limit) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${options.namespace}:${name}`,
        points: limit.points,
        duration: limit.durationSeconds,
        insuranceLimiter: memory(name, limit),
      }),
    shared: true,
    ready: async (timeoutMs = 5_000) => {
      if (redis.status === 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => redis.once('ready', resolve)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
    close: async () => {
      redis.disconnect();
    },
  };
}
