/**
 * The bulk pacer in one process, and shared through Redis as several console instances share it:
 * pacers over separate Redis connections and one namespace are separate instances. Nothing here
 * waits for its slots: this process's schedule runs on a test clock, and Redis's (which keeps
 * Redis's own time) is read from the waits it asks for. The real-time check is the bench's (pace).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type Clock, realClock, type TestClock, testClock } from '@/lib/clock';
import { createLimitCounters, type LimitCounters } from '@/lib/rate-limit/counters';
import { hangableRedis, reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { createPacer, type Pacer } from './pacer';

/** 600 a minute is a slot every 100 ms, 102 with the pacer's 2% margin. */
const INTERVAL_MS = 102;

/** `waits` calls to wait(), each instance's one after another, the instances at once. */
const waitAll = (pacers: Pacer[], waits: number) =>
  Promise.all(
    pacers.map(async (pacer) => {
      for (let n = 0; n < waits; n++) await pacer.wait();
    }),
  );

/** How long the waits take on a test clock, moved from one sleep's end to the next until they end. */
async function clockedWaits(clock: TestClock, pacers: Pacer[], waits: number): Promise<number> {
  const started = clock.monotonic();
  let done = false;
  const waiting = waitAll(pacers, waits).finally(() => {
    done = true;
  });
  while (!done) {
    await Promise.race([waiting, clock.sleeping(1)]);
    if (!done) await clock.next();
  }
  await waiting;
  return clock.monotonic() - started;
}

/** A clock whose sleeps end at once, each noting when on the real clock it would have ended. */
function notingClock(): Clock & { lastEnd: () => number; sleeps: () => number } {
  const ends: number[] = [];
  return {
    ...realClock,
    sleep: async (ms) => {
      ends.push(realClock.monotonic() + ms);
    },
    lastEnd: () => Math.max(...ends),
    sleeps: () => ends.length,
  };
}

describe('createPacer, in this process', () => {
  it('spaces slots evenly, 2% wider than the pace; unlimited does not wait', async () => {
    const clock = testClock();
    // 11 slots: the first now, the last 10 intervals later.
    expect(await clockedWaits(clock, [createPacer(600, undefined, clock)], 11)).toBeCloseTo(10 * INTERVAL_MS);
    expect(await clockedWaits(clock, [createPacer(null, undefined, clock)], 1_000)).toBe(0);
  });

  it('gives two callers of one pacer one schedule between them', async () => {
    const clock = testClock();
    const pacer = createPacer(600, undefined, clock);
    // 2 × 5 slots in one schedule: the last 9 intervals after the first.
    expect(await clockedWaits(clock, [pacer, pacer], 5)).toBeCloseTo(9 * INTERVAL_MS);
  });

  it('falls back to its own schedule when Redis does not answer, without throwing, and says so once', async () => {
    const reports: string[] = [];
    const slots = createLimitCounters({
      redisUrl: 'redis://:not-said@127.0.0.1:1',
      namespace: testNamespace('pace-down'),
      onRedisError: (message) => reports.push(message),
    });
    try {
      const clock = testClock();
      const elapsed = await clockedWaits(clock, [createPacer(600, { slots, name: 'Testing' }, clock)], 11);
      expect(elapsed).toBeCloseTo(10 * INTERVAL_MS);
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
    const clock = notingClock();
    const started = realClock.monotonic();
    await waitAll(
      instances.map((slots) => createPacer(600, { slots, name: 'Testing' }, clock)),
      30,
    );
    // 60 slots, the first now: the last 59 intervals later (each instance on its own: 29). Redis
    // counts from its own clock: the round trips' time is all that separates the two readings.
    const elapsed = clock.lastEnd() - started;
    expect(elapsed).toBeGreaterThan(59 * INTERVAL_MS * 0.97);
    expect(elapsed).toBeLessThan(59 * INTERVAL_MS * 1.03);
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
      // Redis stops answering until the slots have come: a pacer that waited for it would never end
      // (the test's timeout says so). Three slots, each after a 100 ms command timeout; they come now
      // and at once: the timeouts have spaced them already.
      relay.hang();
      await waitAll([createPacer(600, { slots, name: 'Testing' }, realClock)], 3);
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
      const started = realClock.monotonic();
      await waitAll([createPacer(600, { slots, name: 'Testing' }, notingClock())], 3);
      // Nobody waited: the slot after the third is three intervals ahead, less the time the round
      // trips took; the key lasts a second beyond it. (That Redis drops it then is Redis's part.)
      const key = `${namespace}:pace:Testing`;
      const ttl = await redis.pttl(key);
      const elapsed = realClock.monotonic() - started;
      expect(ttl).toBeGreaterThanOrEqual(1_000 + 3 * INTERVAL_MS - elapsed - 1);
      expect(ttl).toBeLessThanOrEqual(1_000 + 3 * INTERVAL_MS + 1);
      // Another environment's schedule is its own: its first slot is now.
      const customer = notingClock();
      await waitAll([createPacer(600, { slots, name: 'Customer' }, customer)], 1);
      expect(customer.sleeps()).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
