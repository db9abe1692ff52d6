/**
 * One figure as a ratio to its baseline, trusted only as far as the machine allows: after a warm-up
 * of each, baseline and scenario run in interleaved pairs (order alternating, so a drift in the
 * machine's load falls on both alike), each pair gives a ratio, and the figure is the median ratio
 * with its spread. A baseline whose own runs spread more than 20% makes the figure say so.
 */
import type { LoadResult } from './load';

// Five pairs left a median that moved 15-35% between runs when one or two pairs strayed.
export const PAIRS = Math.max(3, Number(process.env.BENCH_PAIRS ?? 7));
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
// One second left the first pairs of one-connection rotations 1.5× slower on both sides (caches, JIT).
export const WARMUP_SECONDS = 2;
export const NOISY_SPREAD = 0.2;

interface Pair {
  baseline: LoadResult;
  scenario: LoadResult;
}

/** What a figure compares: a pair's ratio, and the baseline's own value (whose spread is noise). */
export interface Measure {
  name: string;
  ratio(pair: Pair): number;
  baselineValue(load: LoadResult): number;
}

const throughput: Measure = {
  name: 'req/s',
  ratio: (pair) => pair.scenario.requestsPerSecond / pair.baseline.requestsPerSecond,
  baselineValue: (load) => load.requestsPerSecond,
};

/**
 * The servers' CPU time per request, baseline over scenario (so that, like throughput, 0.5 means
 * the scenario does half as much with the same machine). Under 32 connections on 2 cores, the load
 * generator and the servers share the cores as the scheduler decides, which moves throughput far
 * more than the code does; the CPU a request costs moves much less. Where no CPU was read (not
 * Linux), throughput.
 */
export const cpuCost: Measure = {
  name: 'CPU per request',
  ratio: (pair) =>
    pair.baseline.serverCpuMsPerRequest && pair.scenario.serverCpuMsPerRequest
      ? pair.baseline.serverCpuMsPerRequest / pair.scenario.serverCpuMsPerRequest
      : throughput.ratio(pair),
  baselineValue: (load) => load.serverCpuMsPerRequest ?? load.requestsPerSecond,
};

/** At one connection, what a person waits: the scenario's p50 over the baseline's. */
export const p50Latency: Measure = {
  name: 'p50',
  ratio: (pair) => pair.scenario.p50Ms / pair.baseline.p50Ms,
  baselineValue: (load) => load.p50Ms,
};

export interface PairedFigure {
  pairs: Pair[];
  measure: string;
  /** Medians over the pairs. */
  baseline: LoadResult;
  scenario: LoadResult;
  /** Median of the pairs' ratios of the measure. */
  ratio: number;
  /** (max - min) / median of the pairs' ratios. */
  ratioSpread: number;
  /** Median of the pairs' throughput ratios, shown beside a ratio of another measure. */
  throughputRatio: number;
  /** (max - min) / median of the baseline's value of the measure. */
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

/**
 * A freshly started console takes longer than 2 s to settle: over one run's five pairs its health
 * route's CPU per request fell from 1.5 to 0.8 ms, and its one-connection get-or-create p50 from 3.8
 * to 3.0 ms after the 32-connection load, so its figures warm up for this long.
 */
export const CONSOLE_WARMUP_SECONDS = 10;

export interface PairsPlan {
  pairs: number;
  seconds: number;
  warmupSeconds: number;
}

const defaultPlan: PairsPlan = { pairs: PAIRS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS };

/**
 * What one person feels, through the console: its one-connection p50 moved 2.3-4.7 ms from one
 * second to the next, with no trend, while the service's stayed within 0.16-0.23 ms. Against noise
 * that does not last, many short pairs give a steadier median than a few long ones, in the same time.
 */
export const ONE_PERSON_PLAN: PairsPlan = {
  pairs: Math.max(3, Number(process.env.BENCH_ONE_PERSON_PAIRS ?? 25)),
  seconds: 1,
  warmupSeconds: CONSOLE_WARMUP_SECONDS,
};

export async function measurePairs(
  runs: { baseline: Run; scenario: Run },
  measure: Measure = throughput,
  plan: Partial<PairsPlan> = {},
): Promise<PairedFigure> {
  const [figure] = await measureInterleaved([runs], measure, plan);
  if (!figure) throw new Error('measureInterleaved returned no figure for one pair of runs');
  return figure;
}

/**
 * Several figures measured together: each warms up, then the pairs go round the figures (a pair of
 * the first, of the second, …, then the first again), so each figure's pairs span the whole
 * measuring time. Measured one after the other, a slow spell of the machine lasting 10-30 s (seen
 * on the console's one-connection p50: 2.2 ms for a while, then 3.5) fell on most of one figure's
 * pairs and moved its median; spread over all of them, it is a minority of each figure's pairs.
 */
export async function measureInterleaved(
  figures: ReadonlyArray<{ baseline: Run; scenario: Run }>,
  measure: Measure = throughput,
  plan: Partial<PairsPlan> = {},
): Promise<PairedFigure[]> {
  const { pairs: count, seconds, warmupSeconds } = { ...defaultPlan, ...plan };
  for (const runs of figures) {
    await runs.baseline(warmupSeconds);
    await runs.scenario(warmupSeconds);
  }
  const pairsOf: Pair[][] = figures.map(() => []);
  for (let index = 0; index < count; index++) {
    for (const [figure, runs] of figures.entries()) {
      // The order alternates, so a drift in the machine's load falls on both sides alike.
      if (index % 2 === 0) {
        const baseline = await answered(runs.baseline, seconds);
        pairsOf[figure]?.push({ baseline, scenario: await answered(runs.scenario, seconds) });
      } else {
        const scenario = await answered(runs.scenario, seconds);
        pairsOf[figure]?.push({ baseline: await answered(runs.baseline, seconds), scenario });
      }
    }
  }
  return pairsOf.map((pairs) => summarise(pairs, measure));
}

function summarise(pairs: Pair[], measure: Measure): PairedFigure {
  const ratios = pairs.map(measure.ratio);
  const baselineSpread = spread(pairs.map((pair) => measure.baselineValue(pair.baseline)));
  return {
    pairs,
    measure: measure.name,
    baseline: medianLoad(pairs.map((pair) => pair.baseline)),
    scenario: medianLoad(pairs.map((pair) => pair.scenario)),
    ratio: round(median(ratios)),
    ratioSpread: round(spread(ratios)),
    throughputRatio: round(median(pairs.map(throughput.ratio))),
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
    p50Ms: Math.round(of((load) => load.p50Ms) * 1000) / 1000,
    p99Ms: Math.round(of((load) => load.p99Ms) * 1000) / 1000,
    requests: Math.round(of((load) => load.requests)),
    non2xx: 0,
    errors: 0,
    ...(loads.every((load) => load.serverCpuMsPerRequest !== undefined)
      ? { serverCpuMsPerRequest: Math.round(of((load) => load.serverCpuMsPerRequest ?? 0) * 1000) / 1000 }
      : {}),
  };
}

export const round = (value: number) => Math.round(value * 100) / 100;
