import { describe, expect, it, vi } from 'vitest';
import { testClock } from '@/lib/clock';
import {
  CLOSED_AFTER_MS,
  FLOOD_CLOSED_MS,
  FLOOD_GAP_MS,
  FLOOD_OPEN_MS,
  MAX_CLOSED_MS,
  processReadGate,
  ReadGate,
} from './read-gate';

/** Whether `promise` has settled once the microtasks and a macrotask have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** A hold that lasts until `end` is called. */
function holding(gate: ReadGate) {
  let end = () => {};
  const held = gate.hold(() => new Promise<void>((resolve) => (end = resolve)));
  return {
    end: async () => {
      end();
      await held;
    },
  };
}

describe('ReadGate: heavy reads give way to a sign-in', () => {
  it('lets a read go at once while nobody signs in', async () => {
    const gate = new ReadGate(testClock());
    expect(await settled(gate.turn())).toBe(true);
  });

  it('holds a read while a sign-in is under way, and lets it go CLOSED_AFTER_MS after the sign-in ends', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    const signIn = holding(gate);
    const read = gate.turn();
    expect(await settled(read)).toBe(false);
    await signIn.end();
    expect(await settled(read)).toBe(false);
    await clock.advance(CLOSED_AFTER_MS - 1);
    expect(await settled(read)).toBe(false);
    await clock.advance(1);
    expect(await settled(read)).toBe(true);
    // Open again: the next read does not wait.
    expect(await settled(gate.turn())).toBe(true);
  });

  it('waits for the last of overlapping sign-ins', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    const first = holding(gate);
    const second = holding(gate);
    const read = gate.turn();
    await first.end();
    await clock.advance(CLOSED_AFTER_MS);
    expect(await settled(read)).toBe(false);
    await second.end();
    await clock.advance(CLOSED_AFTER_MS);
    expect(await settled(read)).toBe(true);
  });

  it('answers what the held work answers, and ends the hold when it fails', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    expect(await gate.hold(async () => 42)).toBe(42);
    await expect(gate.hold(() => Promise.reject(new Error('wrong password')))).rejects.toThrow(
      'wrong password',
    );
    expect(gate.held).toBe(false);
    await clock.advance(CLOSED_AFTER_MS);
    expect(await settled(gate.turn())).toBe(true);
  });

  it('keeps the gate closed between sign-ins that follow within CLOSED_AFTER_MS, the bound as before', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    // Sign-ins of 100 ms, 20 ms apart (one's answer, the next one's request): no read starts in a gap.
    let held = holding(gate);
    const read = gate.turn();
    let elapsed = 0;
    for (let signIn = 0; signIn < 4; signIn++) {
      await clock.advance(100);
      await held.end();
      await clock.advance(CLOSED_AFTER_MS - 5);
      elapsed += 100 + CLOSED_AFTER_MS - 5;
      expect(await settled(read)).toBe(false);
      held = holding(gate);
    }
    // The closing is one, bounded as one: the read goes at MAX_CLOSED_MS, a sign-in under way or not.
    await clock.advance(MAX_CLOSED_MS - elapsed - 1);
    expect(await settled(read)).toBe(false);
    await clock.advance(1);
    expect(await settled(read)).toBe(true);
    // Past the slice's opening, closed again while the sign-in goes on; open CLOSED_AFTER_MS after
    // it ends, no sign-in following.
    await clock.advance(FLOOD_OPEN_MS);
    const after = gate.turn();
    await held.end();
    await clock.advance(CLOSED_AFTER_MS - 1);
    expect(await settled(after)).toBe(false);
    await clock.advance(1);
    expect(await settled(after)).toBe(true);
    // The README's 25 ms, shorter than the gap that begins a fresh closing: the next sign-in after it
    // continues this one.
    expect(CLOSED_AFTER_MS).toBe(25);
    expect(CLOSED_AFTER_MS).toBeLessThan(FLOOD_GAP_MS);
  });

  it('stays closed at most MAX_CLOSED_MS, then opens in slices, 50 ms in every 0.5 s, under sign-ins without end', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    const flood = holding(gate);
    const first = gate.turn();
    await clock.advance(MAX_CLOSED_MS - 1);
    expect(await settled(first)).toBe(false);
    await clock.advance(1);
    expect(await settled(first)).toBe(true);
    for (let slice = 0; slice < 3; slice++) {
      // Open for FLOOD_OPEN_MS although the sign-ins go on: every read meanwhile goes at once.
      await clock.advance(FLOOD_OPEN_MS - 1);
      expect(await settled(gate.turn())).toBe(true);
      await clock.advance(1);
      // Closed again, for FLOOD_CLOSED_MS: nine times the opening, no longer.
      const later = gate.turn();
      expect(await settled(later)).toBe(false);
      await clock.advance(FLOOD_CLOSED_MS - 1);
      expect(await settled(later)).toBe(false);
      await clock.advance(1);
      expect(await settled(later)).toBe(true);
    }
    // The README's numbers: 50 ms in every 0.5 s (a tenth of the time), so no read waits longer in a
    // slice than in the first closing; more often, and a flood's sign-ins meet more of the heavy work.
    expect([FLOOD_OPEN_MS, FLOOD_OPEN_MS + FLOOD_CLOSED_MS, MAX_CLOSED_MS]).toEqual([50, 500, 500]);
    await flood.end();
  });

  it('keeps a flood in slices while its sign-ins come one after another, each ending before the next', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    let now = 0;
    const at = async (ms: number) => {
      await clock.advance(ms - now);
      now = ms;
    };
    // Sign-ins of 100 ms, 1 ms apart, from 0 (the sixth at 505, the seventh at 606): one closing.
    let signIn = holding(gate);
    for (const next of [101, 202, 303, 404, 505]) {
      await at(next - 1);
      await signIn.end();
      await at(next);
      signIn = holding(gate);
    }
    // Past MAX_CLOSED_MS a read goes at once, and opens the gate for FLOOD_OPEN_MS.
    await at(510);
    expect(await settled(gate.turn())).toBe(true);
    await at(605);
    await signIn.end();
    await at(606);
    signIn = holding(gate);
    // The seventh sign-in began with no sign-in under way, 1 ms after the sixth: still the flood,
    // closed for a slice from the opening's end, not for a whole closing again.
    await at(610);
    const later = gate.turn();
    await at(510 + FLOOD_OPEN_MS + FLOOD_CLOSED_MS - 1);
    expect(await settled(later)).toBe(false);
    await at(510 + FLOOD_OPEN_MS + FLOOD_CLOSED_MS);
    expect(await settled(later)).toBe(true);
    await signIn.end();
  });

  it('closes for MAX_CLOSED_MS again once a flood has ended', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    const flood = holding(gate);
    const read = gate.turn();
    await clock.advance(MAX_CLOSED_MS + FLOOD_OPEN_MS);
    expect(await settled(read)).toBe(true);
    await flood.end();
    await clock.advance(FLOOD_GAP_MS);
    // A sign-in of its own: its whole MAX_CLOSED_MS, not a slice.
    const signIn = holding(gate);
    const held = gate.turn();
    await clock.advance(FLOOD_CLOSED_MS);
    expect(await settled(held)).toBe(false);
    await clock.advance(MAX_CLOSED_MS - FLOOD_CLOSED_MS);
    expect(await settled(held)).toBe(true);
    await signIn.end();
  });

  it('counts sign-ins one after another, with short gaps between them, as one closing', async () => {
    const clock = testClock();
    const gate = new ReadGate(clock);
    // 505 ms of sign-ins, each 100 ms long, 1 ms apart: each gap would let only the reads already
    // waiting through, were each sign-in a closing of its own.
    for (let signIn = 0; signIn < 5; signIn++) {
      const held = holding(gate);
      await clock.advance(100);
      await held.end();
      await clock.advance(1);
    }
    const flood = holding(gate);
    const read = gate.turn();
    await clock.advance(1);
    expect(await settled(read)).toBe(true);
    // Then open for FLOOD_OPEN_MS, the sign-ins going on.
    await clock.advance(FLOOD_OPEN_MS - 2);
    expect(await settled(gate.turn())).toBe(true);
    await flood.end();
    // A sign-in FLOOD_GAP_MS or more after the last one ended begins a closing of its own.
    await clock.advance(FLOOD_GAP_MS);
    const next = holding(gate);
    const held = gate.turn();
    await clock.advance(MAX_CLOSED_MS - 1);
    expect(await settled(held)).toBe(false);
    await clock.advance(1);
    expect(await settled(held)).toBe(true);
    await next.end();
  });

  it('is one per process, whichever copy of its module asks (Next loads one per bundle layer)', async () => {
    const clock = testClock();
    const routes = processReadGate(clock);
    vi.resetModules();
    const pages = await import('./read-gate');
    expect(pages.processReadGate).not.toBe(processReadGate);
    expect(pages.processReadGate(clock)).toBe(routes);
    // A sign-in the routes handle holds the pages' reads.
    const signIn = holding(routes);
    const pageRead = pages.processReadGate(clock).turn();
    expect(await settled(pageRead)).toBe(false);
    await signIn.end();
    await clock.advance(CLOSED_AFTER_MS);
    expect(await settled(pageRead)).toBe(true);
  });
});
