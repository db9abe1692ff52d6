/**
 * Group commit for a job's row outcomes. One transaction per row would spend most of a job's time
 * committing (on SQLite, a commit costs more than the row it writes), so outcomes are queued and
 * written together:
 *
 * - an outcome that must be stored before its worker goes on (a rotation's answer: its new token
 *   exists nowhere else) is written at the end of the current turn of the event loop, together
 *   with whatever else arrived in that turn, and its worker waits for the commit;
 * - an outcome that can be asked for again (a get-or-create answers the same group, with the same
 *   token, every time) lingers a few milliseconds so that one commit carries many rows, and its
 *   worker goes on at once, unless too many are waiting, which makes it wait too (back-pressure).
 *
 * A row whose outcome is still queued is `sending` in the database: after a crash it is sent again,
 * as any row that was in flight.
 */
import type { Clock } from '@/lib/clock';

export interface OutcomeWriter<T> {
  /** Queues an outcome. `durable`: answers once it is committed; otherwise at once, while few wait. */
  add(outcome: T, durable: boolean): Promise<void>;
  /** Writes everything queued and answers when it is committed; throws if any write failed. */
  flush(): Promise<void>;
  /** The first failure of a write nobody waited for: the job must stop taking rows. */
  failure(): unknown;
}

export interface OutcomeWriterOptions<T> {
  /** Writes a batch in one transaction. */
  write: (batch: T[]) => Promise<void>;
  /** How long outcomes that need not be durable at once may wait for company. */
  lingerMs?: number;
  /** Queued outcomes beyond which every worker waits for its commit. */
  maxQueued?: number;
  /** What the linger waits on: the runner's clock. */
  clock: Clock;
}

interface Queued<T> {
  outcome: T;
  settle: (error?: unknown) => void;
}

export function createOutcomeWriter<T>(options: OutcomeWriterOptions<T>): OutcomeWriter<T> {
  const lingerMs = options.lingerMs ?? 20;
  const maxQueued = options.maxQueued ?? 256;
  const clock = options.clock;
  let queue: Queued<T>[] = [];
  let writing: Promise<void> | null = null;
  let lingering: AbortController | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let failure: unknown;

  function writeSoon(): void {
    if (lingering) return;
    const linger = new AbortController();
    lingering = linger;
    // Cut short (aborted) by a drain that came first: that drain writes these too.
    void clock.sleep(lingerMs, linger.signal).then(() => {
      if (!linger.signal.aborted) void drain();
    });
  }

  function writeNow(): void {
    immediate ??= setImmediate(drain);
  }

  /** Writes until the queue is empty; a drain that finds one under way waits for it and goes on. */
  function drain(): Promise<void> {
    lingering?.abort();
    if (immediate) clearImmediate(immediate);
    lingering = undefined;
    immediate = undefined;
    writing ??= (async () => {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        try {
          await options.write(batch.map((queued) => queued.outcome));
          for (const queued of batch) queued.settle();
        } catch (error) {
          failure ??= error;
          for (const queued of batch) queued.settle(error);
        }
      }
    })().finally(() => {
      writing = null;
      // Queued after the loop's last look (while this promise settled): not to be left behind.
      if (queue.length > 0) writeNow();
    });
    return writing;
  }

  return {
    add(outcome, durable) {
      const mustWait = durable || queue.length >= maxQueued;
      return new Promise<void>((resolve, reject) => {
        queue.push({
          outcome,
          settle: mustWait ? (error) => (error === undefined ? resolve() : reject(error)) : () => {},
        });
        if (mustWait) writeNow();
        else {
          writeSoon();
          resolve();
        }
      });
    },
    async flush() {
      while (queue.length > 0 || writing) await drain();
      if (failure !== undefined) throw failure;
    },
    failure: () => failure,
  };
}
