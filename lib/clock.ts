/**
 * Time as a dependency: what leases, paces and caches ask of it, so that a test can move it on
 * instead of waiting for it (testClock). The process's own clock is realClock, named only where a
 * process begins (lib/clock-reads.test.ts lists where): everything else is handed its clock.
 */
export interface Clock {
  /** Wall time in ms since the epoch: for what is written down or compared between processes. */
  now(): number;
  /**
   * A reading in ms that only moves forward (performance.now): for spacing and intervals inside
   * this process, which setting the wall clock must not stretch or squeeze.
   */
  monotonic(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (a loop that is stopped need not wait). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  // Read at each call, not bound once: a test that fakes Date (vi.setSystemTime) moves this too.
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', wake, { once: true });
    }),
};

interface Sleeper {
  due: number;
  wake: () => void;
}

export interface TestClock extends Clock {
  /** Moves time on by `ms`, waking the sleeps due by then in order, each at its own moment. */
  advance(ms: number): Promise<void>;
  /** Moves time to the end of the earliest sleep and wakes it; false when nobody sleeps. */
  next(): Promise<boolean>;
  /**
   * Resolves once at least `count` sleeps are pending: the code under test has done its work (its
   * real I/O included) and waits for time again.
   */
  sleeping(count?: number): Promise<void>;
}

/** Yields to the event loop: what a woken sleeper does synchronously and in promises runs first. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when told. It starts at a fixed date far from today's, so that code that
 * reads the real clock instead shows up as a failed test rather than passing by luck.
 */
export function testClock(start = Date.UTC(2030, 0, 1)): TestClock {
  let at = start;
  let sleepers: Sleeper[] = [];
  let watchers: Array<{ count: number; resolve: () => void }> = [];

  const notify = () => {
    const ready = watchers.filter((watcher) => sleepers.length >= watcher.count);
    watchers = watchers.filter((watcher) => sleepers.length < watcher.count);
    for (const watcher of ready) watcher.resolve();
  };

  /** Wakes the earliest sleep if it is due by `until`; answers whether it did. */
  async function wakeEarliest(until: number): Promise<boolean> {
    // Stable by insertion, so two sleeps due together wake in the order they began.
    const earliest = sleepers.reduce<Sleeper | undefined>(
      (found, sleeper) => (found === undefined || sleeper.due < found.due ? sleeper : found),
      undefined,
    );
    if (earliest === undefined || earliest.due > until) return false;
    sleepers = sleepers.filter((sleeper) => sleeper !== earliest);
    at = Math.max(at, earliest.due);
    earliest.wake();
    await turn();
    return true;
  }

  return {
    now: () => at,
    monotonic: () => at - start,
    sleep(ms, signal) {
      if (ms <= 0 || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const sleeper: Sleeper = { due: at + ms, wake: () => resolve() };
        sleepers.push(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers = sleepers.filter((other) => other !== sleeper);
            resolve();
          },
          { once: true },
        );
        notify();
      });
    },
    async advance(ms) {
      const until = at + ms;
      while (await wakeEarliest(until)) {}
      at = until;
    },
    next: () => wakeEarliest(Number.POSITIVE_INFINITY),
    sleeping(count = 1) {
      if (sleepers.length >= count) return Promise.resolve();
      return new Promise((resolve) => watchers.push({ count, resolve }));
    },
  };
}
