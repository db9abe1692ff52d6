import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export type LoadOptions = Omit<autocannon.Options, 'url'> & { url: string };

/** One bounded autocannon run on loopback (the load generator, not a hand-written loop). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ connections: 32, duration: 5, ...options });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
