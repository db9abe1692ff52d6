import { describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { createOutcomeWriter } from './outcome-writer';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A write that records its batches and can be made to fail or to take a while (event-loop turns, not time). */
function recordingWrite(options: { fail?: (batch: number[]) => boolean; turns?: number } = {}) {
  const batches: number[][] = [];
  const write = async (batch: number[]) => {
    for (let n = 0; n < (options.turns ?? 0); n++) await turn();
    if (options.fail?.(batch)) throw new Error('disk full');
    batches.push(batch);
  };
  return { batches, write };
}

describe('the outcome writer (group commit of a job’s rows)', () => {
  it('answers a durable outcome only once it is written, in one batch with the others of that turn', async () => {
    const { batches, write } = recordingWrite({ turns: 3 });
    const writer = createOutcomeWriter({ write, lingerMs: 10_000, clock: testClock() });
    let answered = 0;
    const adds = [1, 2, 3].map((n) => writer.add(n, true).then(() => answered++));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(0);
    await Promise.all(adds);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('lets a worker go on at once with an outcome that can be asked for again, and writes those together', async () => {
    const { batches, write } = recordingWrite();
    const clock = testClock();
    const writer = createOutcomeWriter({ write, lingerMs: 20, clock });
    for (let n = 0; n < 50; n++) await writer.add(n, false);
    await clock.advance(19);
    expect(batches).toEqual([]);
    await clock.advance(1);
    await turn();
    expect(batches).toEqual([Array.from({ length: 50 }, (_, n) => n)]);
  });

  it('flush writes what is queued at once and waits for it', async () => {
    const { batches, write } = recordingWrite({ turns: 3 });
    const writer = createOutcomeWriter({ write, lingerMs: 10_000, clock: testClock() });
    await writer.add(1, false);
    await writer.add(2, false);
    await writer.flush();
    expect(batches.flat()).toEqual([1, 2]);
  });

  it('makes workers wait once too many outcomes are queued (back-pressure)', async () => {
    const { batches, write } = recordingWrite({ turns: 3 });
    const writer = createOutcomeWriter({ write, lingerMs: 10_000, maxQueued: 3, clock: testClock() });
    for (const n of [1, 2, 3]) await writer.add(n, false);
    let fourthAnswered = false;
    const fourth = writer.add(4, false).then(() => {
      fourthAnswered = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fourthAnswered).toBe(false);
    await fourth;
    expect(batches.flat()).toEqual([1, 2, 3, 4]);
  });

  it('keeps a write’s failure: the durable outcome is refused, the job told, flush throws', async () => {
    const { batches, write } = recordingWrite({ fail: (batch) => batch.includes(2) });
    const writer = createOutcomeWriter({ write, lingerMs: 10_000, clock: testClock() });
    await writer.add(1, false);
    await expect(writer.add(2, true)).rejects.toThrow('disk full');
    expect(writer.failure()).toBeInstanceOf(Error);
    await expect(writer.flush()).rejects.toThrow('disk full');
    expect(batches).toEqual([]);
  });

  it('writes an outcome queued while the last write was settling', async () => {
    const { batches, write } = recordingWrite({ turns: 2 });
    const writer = createOutcomeWriter({ write, lingerMs: 10_000, clock: testClock() });
    // Each durable answer queues the next the moment it is settled, as a worker does.
    let n = 0;
    const worker = async () => {
      while (n < 20) await writer.add(n++, true);
    };
    await Promise.all([worker(), worker()]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
