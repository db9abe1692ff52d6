/**
 * The pace of one environment's bulk requests: evenly spaced slots at `requestsPerMinute`, shared
 * by every job in that environment in this process (null: as fast as the workers go). Evenly
 * spaced, not bursts, because vendors count requests per caller over short windows.
 */
export interface Pacer {
  /** Resolves when the caller's slot comes. */
  wait(): Promise<void>;
}

export function createPacer(requestsPerMinute: number | null): Pacer {
  if (!requestsPerMinute) return { wait: async () => {} };
  const interval = 60_000 / requestsPerMinute;
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
