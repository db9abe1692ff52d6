import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /**
   * From every 2xx answer's own time (hrtime), in ms to 0.001: autocannon's histogram keeps whole ms
   * only, and 0.01 ms was itself ±5% of the service's 0.09 ms p50 that one-person figures divide by.
   */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** The servers' CPU time per answered request (bench/cpu.ts), where it was read. */
  serverCpuMsPerRequest?: number;
}

export type LoadOptions = Omit<autocannon.Options, 'url'> & { url: string };

/**
 * One bounded autocannon run on loopback (the load generator, not a hand-written loop). A run with
 * any non-2xx answer, error or timeout throws: fast failures would count as throughput.
 */
export async function runLoad(label: string, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: 32, duration: 5, ...options }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
  const load: LoadResult = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  if (load.non2xx > 0 || load.errors > 0) {
    const codes = Object.keys(result.statusCodeStats ?? {}).join(', ');
    throw new Error(
      `${label}: ${load.non2xx} non-2xx answers (status ${codes}) and ${load.errors} errors or timeouts in ${load.requests} requests; a figure over failures would measure the failure path`,
    );
  }
  return load;
}

function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return Math.round(value * 1000) / 1000;
}
