/**
 * One figure as a ratio to its baseline, trusted only as far as the machine allows: after a warm-up
 * of each, baseline and scenario run in interleaved pairs (order alternating, so a drift in the
 * machine's load falls on both alike), each pair gives a ratio, and the figure is the median ratio
 * with its spread. A baseline whose own runs spread more than 20% makes the figure say so.
 */
import type { LoadResult } from './load';

export const PAIRS = Math.max(3, Number(process.env.BENCH_PAIRS ?? 5));
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const WARMUP_SECONDS = 1;
export const NOISY_SPREAD = 0.2;

export interface Pair {
  baseline: LoadResult;
  scenario: LoadResult;
}

export interface PairedFigure {
  pairs: Pair[];
  /** Medians over the pairs. */
  baseline: LoadResult;
  scenario: LoadResult;
  /** Median of the pairs' ratios, of what `ratioOf` picks (scenario over baseline). */
  ratio: number;
  /** (max - min) / median of the pairs' ratios. */
  ratioSpread: number;
  /** (max - min) / median of the baseline's requests per second. */
  baselineSpread: number;
  /** The baseline spread over NOISY_SPREAD: the machine, not the code, set this figure. */
  noisy: boolean;
}

type Run = (seconds: number) => Promise<LoadResult>;

/** A measured run in which not one request was answered (a warm-up may be: first calls are slow). */
async function answered(run: Run, seconds: number): Promise<LoadResult> {
  const load = await run(seconds);
  if (load.requests === 0) throw new Error(`no request was answered within ${seconds} s: nothing to measure`);
  return load;
}

export async function measurePairs(
  runs: { baseline: Run; scenario: Run },
  ratioOf: (pair: Pair) => number = (pair) =>
    pair.scenario.requestsPerSecond / pair.baseline.requestsPerSecond,
): Promise<PairedFigure> {
  await runs.baseline(WARMUP_SECONDS);
  await runs.scenario(WARMUP_SECONDS);
  const pairs: Pair[] = [];
  for (let index = 0; index < PAIRS; index++) {
    if (index % 2 === 0) {
      const baseline = await answered(runs.baseline, SECONDS);
      pairs.push({ baseline, scenario: await answered(runs.scenario, SECONDS) });
    } else {
      const scenario = await answered(runs.scenario, SECONDS);
      pairs.push({ baseline: await answered(runs.baseline, SECONDS), scenario });
    }
  }
  const ratios = pairs.map(ratioOf);
  const baselineRates = pairs.map((pair) => pair.baseline.requestsPerSecond);
  const baselineSpread = spread(baselineRates);
  return {
    pairs,
    baseline: medianLoad(pairs.map((pair) => pair.baseline)),
    scenario: medianLoad(pairs.map((pair) => pair.scenario)),
    ratio: round(median(ratios)),
    ratioSpread: round(spread(ratios)),
    baselineSpread: round(baselineSpread),
    noisy: baselineSpread > NOISY_SPREAD,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function spread(values: readonly number[]): number {
  const middle = median(values);
  return middle === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / middle;
}

/** Each field's median over the runs. */
function medianLoad(loads: readonly LoadResult[]): LoadResult {
  const of = (pick: (load: LoadResult) => number) => median(loads.map(pick));
  return {
    requestsPerSecond: Math.round(of((load) => load.requestsPerSecond)),
    p50Ms: round(of((load) => load.p50Ms)),
    p99Ms: round(of((load) => load.p99Ms)),
    requests: Math.round(of((load) => load.requests)),
    non2xx: 0,
    errors: 0,
  };
}

export const round = (value: number) => Math.round(value * 100) / 100;
