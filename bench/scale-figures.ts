/**
 * The scale bench's arithmetic, apart from any server: how an answer's rows are counted, and how
 * samples at the two sizes become a figure against the goals (issue 44). Pure: bench/scale-figures.test.ts.
 */

export const SCALE_GOALS = {
  /** Large p95 over small p95. */
  growth: 1.5,
  /** Every JSON route, at both sizes. */
  jsonP95Ms: 100,
  /** The /audit page itself (server-rendered HTML), issue 33's goal. */
  pageP95Ms: 300,
  /** Health and sign-in p95 while the heaviest run, over their p95 at rest. */
  responsivenessMs: 100,
  /** RSS once idle after the exports, over RSS before the first: what the console kept. */
  exportKept: 1.1,
} as const;

/**
 * Under 5 ms both sides count as 5 ms: there a ratio measures the machine's noise (a GC, another
 * process), not the table's size.
 */
export const GROWTH_FLOOR_MS = 5;

/** The sample at or above p percent of them (nearest rank), to 0.1 ms. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples to take a percentile of');
  const sorted = [...samples].sort((a, b) => a - b);
  const value =
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return Math.round(value * 10) / 10;
}

export function growth(smallP95Ms: number, largeP95Ms: number): number {
  const ratio = Math.max(GROWTH_FLOOR_MS, largeP95Ms) / Math.max(GROWTH_FLOOR_MS, smallP95Ms);
  return Math.round(ratio * 100) / 100;
}

/** What the bench expects an answer to hold: rows (a figure over none measures nothing), or none. */
export type Expectation = 'rows' | 'none';

/** Throws unless the answer held what the figure is meant to measure. */
export function checkRows(figure: string, size: string, rows: number, expect: Expectation): void {
  if (expect === 'rows' && rows <= 0)
    throw new Error(
      `${figure} at the ${size} size selected no rows: a figure over no rows measures nothing (check the bench's filters against the loaded data)`,
    );
  if (expect === 'none' && rows !== 0)
    throw new Error(`${figure} at the ${size} size selected ${rows} rows; it is meant to match nothing`);
}

/** CSV data lines (the header aside); the export quotes no line breaks in these rows. */
export function csvRows(text: string): number {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return Math.max(0, lines.length - 1);
}

/** Table rows of a server-rendered page, its header row aside. */
export function htmlTableRows(html: string): number {
  return Math.max(0, (html.match(/<tr[\s>]/g) ?? []).length - 1);
}

/** The length of one array field of a JSON answer. */
export function jsonRows(field: string): (text: string) => number {
  return (text) => {
    const value = (JSON.parse(text) as Record<string, unknown>)[field];
    if (!Array.isArray(value)) throw new Error(`the answer has no array "${field}": ${text.slice(0, 200)}`);
    return value.length;
  };
}

interface SizeFigure {
  p50Ms: number;
  p95Ms: number;
  /** The rows the answer held (the last one answered 200). */
  rows: number;
  /** Answers other than 200 (status and error code), timed with the rest. */
  failures: string[];
}

interface Measured {
  samples: number[];
  rows: number;
  failures?: string[];
}

export interface ScaleFigure {
  request: string;
  small: SizeFigure;
  large: SizeFigure;
  growth: number;
  /** null: no p95 goal of its own (the export), growth only. */
  goalP95Ms: number | null;
  withinGrowth: boolean;
  withinP95: boolean;
  /** Every answer at both sizes was a 200. */
  answered: boolean;
}

export function scaleFigure(
  request: string,
  goalP95Ms: number | null,
  small: Measured,
  large: Measured,
): ScaleFigure {
  const at = ({ samples, rows, failures = [] }: Measured): SizeFigure => ({
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    rows,
    failures,
  });
  const smallFigure = at(small);
  const largeFigure = at(large);
  const ratio = growth(smallFigure.p95Ms, largeFigure.p95Ms);
  return {
    request,
    small: smallFigure,
    large: largeFigure,
    growth: ratio,
    goalP95Ms,
    withinGrowth: ratio <= SCALE_GOALS.growth,
    // At both sizes: a person on the small directory waits as much as one on the large.
    withinP95: goalP95Ms === null || Math.max(smallFigure.p95Ms, largeFigure.p95Ms) < goalP95Ms,
    answered: smallFigure.failures.length === 0 && largeFigure.failures.length === 0,
  };
}

export interface Responsiveness {
  figure: string;
  atRest: { p50Ms: number; p95Ms: number; samples: number };
  underLoad: { p50Ms: number; p95Ms: number; samples: number };
  /** p95 under load minus p95 at rest. */
  addedMs: number;
  within: boolean;
}

export function responsiveness(figure: string, atRest: number[], underLoad: number[]): Responsiveness {
  const side = (samples: number[]) => ({
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    samples: samples.length,
  });
  const rest = side(atRest);
  const load = side(underLoad);
  const addedMs = Math.round((load.p95Ms - rest.p95Ms) * 10) / 10;
  return { figure, atRest: rest, underLoad: load, addedMs, within: addedMs <= SCALE_GOALS.responsivenessMs };
}

/** The n figures slowest at the large size (p50), among those that may run in a loop. */
export function heaviest<T extends { name: string }>(
  candidates: readonly T[],
  largeP50Ms: (candidate: T) => number,
  n: number,
): T[] {
  return [...candidates].sort((a, b) => largeP50Ms(b) - largeP50Ms(a)).slice(0, n);
}
