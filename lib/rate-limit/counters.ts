/**
 * Where rate limits count: in this process (rate-limiter-flexible's RateLimiterMemory), or in Redis
 * (RateLimiterRedis over ioredis) when a REDIS_URL is given, so that every console or service
 * instance counts against the same limits. The one seam the console's sign-in limiter, the
 * service's per-key limiter and the bulk jobs' pacer build on: they ask for fixed windows or a
 * schedule's next slot by name and never see the store.
 *
 * Redis unreachable: each window falls back to counting in this process (rate-limiter-flexible's
 * insurance limiter), and each schedule to the pacer's own, so an outage loosens the limits to per
 * instance instead of refusing everyone or letting everyone through. Connection errors are
 * reported through `onRedisError` (and so is a schedule's failed step), once per outage, the URL's
 * credentials stripped.
 */
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { redactUrlsInText } from '@/lib/redact-url';

interface WindowLimit {
  /** What one key may spend per window. */
  points: number;
  durationSeconds: number;
}

export interface LimitCounters {
  /** Fixed windows per key under `name` (a window starts at a key's first point). */
  window(name: string, limit: WindowLimit): RateLimiterAbstract;
  /**
   * Takes the next slot of the evenly spaced schedule `name` (each slot `intervalMs` after the one
   * before, and none before now) and answers how many ms until it comes. Kept in Redis by Redis's
   * clock, shared by every instance; null when the schedule is not shared (no Redis, or it did not
   * answer): the caller keeps its own.
   */
  nextSlot(name: string, intervalMs: number): Promise<number | null>;
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
  /** How long a Redis command may take before it counts as failed (default 1 s; tests shorten it). */
  commandTimeoutMs?: number;
}

export function createLimitCounters(options: LimitCountersOptions): LimitCounters {
  const memory = (name: string, limit: WindowLimit) =>
    new RateLimiterMemory({
      keyPrefix: `${options.namespace}:${name}`,
      points: limit.points,
      duration: limit.durationSeconds,
    });
  if (!options.redisUrl) {
    return {
      window: memory,
      nextSlot: async () => null,
      shared: false,
      ready: async () => {},
      close: async () => {},
    };
  }
  // No offline queue: while Redis is unreachable a count fails at once and the insurance limiter
  // answers, instead of a sign-in or an API call waiting for a reconnection.
  // A command timeout: a Redis that is connected but stopped answering fails like one that is down,
  // instead of holding every sign-in and bulk request until it answers again.
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
  });
  let reported = false;
  const report = (error: unknown) => {
    if (reported) return;
    reported = true; // once per outage, not once per reconnection attempt
    const message = error instanceof Error ? error.message : String(error);
    options.onRedisError?.(
      `Redis unreachable, limits and paces count per process: ${redactUrlsInText(message)}`,
    );
  };
  redis.on('error', report);
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
    nextSlot: async (name, intervalMs) => {
      try {
        const waitUs = await redis.eval(
          NEXT_SLOT,
          1,
          `${options.namespace}:${name}`,
          Math.max(1, Math.round(intervalMs * 1000)),
        );
        return Number(waitUs) / 1000;
      } catch (error) {
        report(error);
        return null;
      }
    },
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

/**
 * The next slot of KEYS[1], ARGV[1] microseconds after the one before and none before now, as one
 * atomic step; answers the microseconds until it. Now is Redis's TIME, not the callers' clocks,
 * which differ between machines. The key holds the slot after this one and expires a second after
 * that slot has passed, when an absent key means the same: the schedule is free from now.
 * (replicate_commands lets a script write after TIME before Redis 5, which does so by default.)
 */
const NEXT_SLOT = `
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or 0))
local following = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', following), 'PX', math.ceil((following - now) / 1000) + 1000)
return slot - now
`;
