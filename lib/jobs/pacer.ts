/**
 * The pace of one environment's bulk requests: evenly spaced slots at `requestsPerMinute`, shared
 * by every job in that environment in this process (null: as fast as the workers go). Evenly
 * spaced, not bursts, because vendors count requests per caller over short windows.
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

export function createPacer(requestsPerMinute: number | null): Pacer {
  if (!requestsPerMinute) return { wait: async () => {} };
  const interval = (60_000 / requestsPerMinute) * JITTER_MARGIN;
  let nextSlot = 0;
  return {
    async wait() {
      const now = performance.now();
      const slot = Math.max(now, nextSlot);
      nextSlot = slot + interval;
      if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
    },
  };
}
