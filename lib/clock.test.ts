import { describe, expect, it } from 'vitest';
import { realClock, testClock } from './clock';

describe('testClock', () => {
  it('moves only when told, waking each sleep at its own moment, in order', async () => {
    const clock = testClock(1_000);
    const woken: Array<[string, number]> = [];
    const sleep = (name: string, ms: number) => clock.sleep(ms).then(() => woken.push([name, clock.now()]));
    const sleeps = [sleep('late', 300), sleep('early', 100), sleep('also early', 100)];
    await clock.sleeping(3);
    await clock.advance(99);
    expect(woken).toEqual([]);
    await clock.advance(150);
    expect(woken).toEqual([
      ['early', 1_100],
      ['also early', 1_100],
    ]);
    expect(clock.now()).toBe(1_249);
    expect(await clock.next()).toBe(true);
    await Promise.all(sleeps);
    expect(woken.at(-1)).toEqual(['late', 1_300]);
    expect(clock.monotonic()).toBe(300);
    expect(await clock.next()).toBe(false);
  });

  it('wakes a sleep whose signal aborts, and forgets it', async () => {
    const clock = testClock();
    const stop = new AbortController();
    const sleeping = clock.sleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    expect(await clock.next()).toBe(false);
  });
});

describe('realClock', () => {
  it('sleeps on the real clock, and no longer than a stop', async () => {
    const started = realClock.monotonic();
    await realClock.sleep(20);
    expect(realClock.monotonic() - started).toBeGreaterThanOrEqual(19);
    const stop = new AbortController();
    const sleeping = realClock.sleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    expect(Math.abs(realClock.now() - Date.now())).toBeLessThan(5);
  });
});
