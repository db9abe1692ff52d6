import type { Clock } from '@/lib/clock';
import type { LimitCounters } from '@/lib/rate-limit/counters';

/**
 * The pace of one environment's bulk requests: evenly spaced slots at `requestsPerMinute` (null: as
 * fast as the workers go), shared by every job in that environment: in this process, or, given a
 * shared schedule (REDIS_URL), by every console instance, so that N consoles together keep the
 * pace instead of N times it. Evenly spaced, not bursts, because vendors count requests per caller
 * over short windows.
 */
export interface Pacer {
  /** Resolves when the caller's slot comes. */
  wait(): Promise<void>;
}

/**
 * Slots are this much wider than the pace: a vendor counts fixed windows from its own clock, and a
 * request sent exactly on the pace that arrives a few milliseconds early (network jitter) lands in
 * a window already full and is refused, costing a slot and a Retry-After. 2% under the pace keeps
 * that margin (20 ms a second at 3 a second) at a cost the rate barely shows.
 */
const JITTER_MARGIN = 1.02;

export interface SharedSchedule {
  /** Where the schedule is kept (lib/rate-limit: Redis when it has a REDIS_URL). */
  slots: Pick<LimitCounters, 'nextSlot'>;
  /** The schedule's name there: one per environment. */
  name: string;
}

/**
 * `shared`: take slots from that schedule; when it is not shared or does not answer (Redis down),
 * from this process's own, as without it. `clock`: this process's schedule and the waits (a shared
 * schedule keeps Redis's time).
 */
export function createPacer(
  requestsPerMinute: number | null,
  shared: SharedSchedule | undefined,
  clock: Clock,
): Pacer {
  if (!requestsPerMinute) return { wait: async () => {} };
  const interval = (60_000 / requestsPerMinute) * JITTER_MARGIN;
  let nextSlot = 0;
  const ownSlot = () => {
    const now = clock.monotonic();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + interval;
    return slot - now;
  };
  return {
    async wait() {
      const delay =
        (shared ? await shared.slots.nextSlot(`pace:${shared.name}`, interval) : null) ?? ownSlot();
      if (delay > 0) await clock.sleep(delay);
    },
  };
}
