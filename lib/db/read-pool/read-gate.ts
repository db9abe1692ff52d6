/**
 * Heavy reads give way to a sign-in. A password sign-in is scrypt, 100–200 ms of a core on
 * purpose, and the heavy requests (audit pages, exports, searches) spend much of their time on the
 * main thread around their reads (rendering, CSV, rows): with four of them running on the console's
 * core, the hash got a share of it and a sign-in took 233 ms longer at p95, 52 ms with the gate
 * (bench/README.md). While a sign-in is under way, and CLOSED_AFTER_MS after, the gate is closed: a
 * heavy read waits before it starts, so the requests already running finish their step and the next
 * ones do not begin; the hash gets the core.
 *
 * No read waits more than MAX_CLOSED_MS: a closing that long then opens FLOOD_OPEN_MS in every
 * FLOOD_OPEN_MS + FLOOD_CLOSED_MS whatever holds it, and sign-ins with gaps shorter than FLOOD_GAP_MS
 * between them count as one closing (a gap that long begins a fresh one, MAX_CLOSED_MS again), so
 * over a long flood the gate's open share tends to a tenth (its first 0.55 s are open 50 ms), and
 * every read waiting goes at each opening: someone sending sign-ins without end (only those past the
 * limiter hold it: lib/auth/proxy/auth-call.ts's signInStep) slows the heavy reads, never stops them.
 * The share is counted in the clock's time, and so is the wait: a timer that fires late counts as
 * closed, so an event loop held up lowers the share and lengthens the wait by its lateness.
 */
import type { Clock } from '@/lib/clock';
import { processWide } from '@/lib/process-wide';

export const MAX_CLOSED_MS = 500;
/** Sign-ins with gaps shorter than this between them are one closing: a flood, bounded as one. */
export const FLOOD_GAP_MS = 250;
/**
 * Past its first MAX_CLOSED_MS, a closing opens in slices: FLOOD_OPEN_MS open in every
 * FLOOD_OPEN_MS + FLOOD_CLOSED_MS (0.5 s, so no read waits longer than the first closing). An opening
 * lets every waiting read start, and their requests' work on the main thread (rendering, CSV) runs on
 * past it: what a flood's sign-ins meet is that work, once per opening. Openings a third of the time
 * (50 ms in every 150) held the core about half the time, and 40 sign-ins back to back (scrypt ~200 ms
 * on that machine) rose by 255 ms at p95, against none for sign-ins 300 ms apart in the same run; a
 * sixth, by 138 (bench/README.md, round 11). No password sign-in lies wholly in an opening.
 */
export const FLOOD_OPEN_MS = 50;
export const FLOOD_CLOSED_MS = MAX_CLOSED_MS - FLOOD_OPEN_MS;
/**
 * A closing outlasts its last sign-in by this much. Sign-ins back to back (a flood) leave a gap of a
 * few ms between them, the next request on its way: opened there, the gate let every waiting read
 * start, and their requests' work on the main thread ran during the next sign-in's hash (bench/README.md,
 * round 12). Within FLOOD_GAP_MS, so the next one continues the closing.
 */
export const CLOSED_AFTER_MS = 25;

export class ReadGate {
  readonly #clock: Clock;
  #holds = 0;
  /** The reopening CLOSED_AFTER_MS after the last sign-in ended, cancelled by the next one. */
  #after: AbortController | null = null;
  /** When the current closing began (monotonic ms). */
  #closedAt = 0;
  /** How long the current closing may last: MAX_CLOSED_MS, or FLOOD_CLOSED_MS once it has opened. */
  #closedFor = MAX_CLOSED_MS;
  /** Until when the gate stays open whatever holds it (monotonic ms). */
  #openUntil = 0;
  /** When the last hold ended (monotonic ms). */
  #releasedAt = Number.NEGATIVE_INFINITY;
  readonly #waiting: Array<() => void> = [];
  #timer: AbortController | null = null;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Whether a sign-in is under way (the gate is closed, or in one of a flood's openings). False once
   * the last one has ended, while the gate stays closed CLOSED_AFTER_MS more.
   */
  get held(): boolean {
    return this.#holds > 0;
  }

  /** Runs `work` (a step of a sign-in) with heavy reads held back until CLOSED_AFTER_MS past its end. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.#holds++ === 0) {
      this.#after?.abort();
      this.#after = null;
      const now = this.#clock.monotonic();
      // A closing that begins less than FLOOD_GAP_MS after the last one ended continues it: sign-ins one
      // after another with short gaps between them count as one closing, bounded as one.
      if (now - this.#releasedAt >= FLOOD_GAP_MS) {
        this.#closedAt = now;
        this.#closedFor = MAX_CLOSED_MS;
      }
    }
    try {
      return await work();
    } finally {
      if (--this.#holds === 0) {
        this.#releasedAt = this.#clock.monotonic();
        const after = new AbortController();
        this.#after = after;
        void this.#clock.sleep(CLOSED_AFTER_MS, after.signal).then(() => {
          if (after.signal.aborted) return;
          this.#after = null;
          this.#wake();
        });
      }
    }
  }

  /** Resolves when a heavy read may start: at once while the gate is open. */
  turn(): Promise<void> {
    const now = this.#clock.monotonic();
    if (!this.#closed() || now < this.#openUntil) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      if (this.#timer) return;
      const timer = new AbortController();
      this.#timer = timer;
      void this.#clock.sleep(this.#closedAt + this.#closedFor - now, timer.signal).then(() => {
        if (timer.signal.aborted) return;
        // Closed long enough: the reads go, for FLOOD_OPEN_MS at least, and the closing goes on in slices.
        this.#openUntil = this.#clock.monotonic() + FLOOD_OPEN_MS;
        this.#closedAt = this.#openUntil;
        this.#closedFor = FLOOD_CLOSED_MS;
        this.#wake();
      });
    });
  }

  /** Whether heavy reads wait: a sign-in under way, or one ended less than CLOSED_AFTER_MS ago. */
  #closed(): boolean {
    return this.#holds > 0 || this.#after !== null;
  }

  /** Lets every waiting read go. */
  #wake(): void {
    this.#timer?.abort();
    this.#timer = null;
    for (const go of this.#waiting.splice(0)) go();
  }
}

/**
 * The process's gate, made on first use with `clock`. One per process, whichever copy of this
 * module asks (lib/process-wide.ts): a sign-in, which a route handles, must hold the pages' reads
 * too, whatever the copy that built the database they read.
 */
export function processReadGate(clock: Clock): ReadGate {
  return processWide('read-gate', () => new ReadGate(clock));
}
