/**
 * The bulk pacer in one process, and shared through Redis as several console instances share it:
 * pacers over separate Redis connections and one namespace are separate instances.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLimitCounters, type LimitCounters } from '@/lib/rate-limit/counters';
import { hangableRedis, reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { createPacer, type Pacer } from './pacer';

/** 600 a minute is a slot every 100 ms, 102 with the pacer's 2% margin. */
const INTERVAL_MS = 102;

/** How long `waits` calls to wait() take, each instance's one after another, the instances at once. */
async function timeWaits(pacers: Pacer[], waits: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    pacers.map(async (pacer) => {
      for (let n = 0; n < waits; n++) await pacer.wait();
    }),
  );
  return performance.now() - started;
}

describe('createPacer, in this process', () => {
  it('spaces slots evenly, 2% wider than the pace; unlimited does not wait', async () => {
    // 11 slots: the first now, the last 10 intervals later.
    const elapsed = await timeWaits([createPacer(600)], 11);
    expect(elapsed).toBeGreaterThan(10 * INTERVAL_MS * 0.95);
    expect(elapsed).toBeLessThan(10 * INTERVAL_MS * 1.1);
    expect(await timeWaits([createPacer(null)], 1_000)).toBeLessThan(100);
  });

  it('falls back to its own schedule when Redis does not answer, without throwing, and says so once', async () => {
    const reports: string[] = [];
    const slots = createLimitCounters({
      redisUrl: 'redis://:not-said@127.0.0.1:1',
      namespace: testNamespace('pace-down'),
      onRedisError: (message) => reports.push(message),
    });
    try {
      const elapsed = await timeWaits([createPacer(600, { slots, name: 'Testing' })], 11);
      expect(elapsed).toBeGreaterThan(10 * INTERVAL_MS * 0.95);
      expect(elapsed).toBeLessThan(10 * INTERVAL_MS * 1.1);
      expect(reports).toEqual([
        expect.stringMatching(/^Redis unreachable, limits and paces count per process: /),
      ]);
      expect(reports[0]).not.toContain('not-said');
    } finally {
      await slots.close();
    }
  });
});

const redisUrl = await reachableTestRedis();

describe.skipIf(!redisUrl)('createPacer, sharing a schedule in Redis', () => {
  const opened: LimitCounters[] = [];
  afterAll(async () => {
    for (const counters of opened) await counters.close();
  });

  /** One console instance: its own connection to Redis. */
  async function instance(namespace: string): Promise<LimitCounters> {
    const counters = createLimitCounters({ redisUrl, namespace });
    opened.push(counters);
    await counters.ready();
    return counters;
  }

  it('two instances together keep one pace: 2 × 30 waits at 600 a minute take 60 slots’ time', async () => {
    const namespace = testNamespace('pace');
    const instances = [await instance(namespace), await instance(namespace)];
    const elapsed = await timeWaits(
      instances.map((slots) => createPacer(600, { slots, name: 'Testing' })),
      30,
    );
    // 60 slots, the first now: the last 59 intervals later (each instance on its own: 29).
    expect(elapsed).toBeGreaterThan(59 * INTERVAL_MS * 0.9);
    expect(elapsed).toBeLessThan(59 * INTERVAL_MS * 1.1);
  });

  it('falls back to its own schedule when Redis is connected but stops answering, instead of waiting for it', async () => {
    const relay = await hangableRedis(redisUrl as string);
    const slots = createLimitCounters({
      redisUrl: relay.url,
      namespace: testNamespace('pace-hung'),
      commandTimeoutMs: 100,
    });
    opened.push(slots);
    await slots.ready();
    try {
      // Redis stops answering for half a second.
      relay.hang();
      setTimeout(relay.resume, 500);
      // Three slots, each after a 100 ms timeout: about 300 ms. Waiting for Redis: over 500.
      const elapsed = await timeWaits([createPacer(600, { slots, name: 'Testing' })], 3);
      expect(elapsed).toBeLessThan(450);
    } finally {
      relay.resume();
      await relay.close();
    }
  });

  it('keeps one schedule per environment, under the namespace, expiring a second after its last slot', async () => {
    const namespace = testNamespace('pace-keys');
    const slots = await instance(namespace);
    const redis = new Redis(redisUrl as string);
    try {
      await redis.ping();
      await timeWaits([createPacer(600, { slots, name: 'Testing' })], 3);
      // The slot after the third is an interval ahead; the key lasts a second beyond it.
      const key = `${namespace}:pace:Testing`;
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(1_000);
      expect(ttl).toBeLessThanOrEqual(1_000 + INTERVAL_MS + 1);
      // Another environment's schedule is its own: its first slot is now.
      expect(await timeWaits([createPacer(600, { slots, name: 'Customer' })], 1)).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, ttl + 50));
      expect(await redis.exists(key)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
