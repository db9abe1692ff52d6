/**
 * This run's ratios beside the previous run's (bench/results.json before it is overwritten): the
 * bar is that two runs in a row agree within 15% on every figure, and this says which do.
 */
import { z } from 'zod';

export const REPEAT_TOLERANCE = 0.15;

const figure = z.object({ ratio: z.number() });
const savedRun = z.object({
  measuredAt: z.string().optional(),
  service: z.array(z.object({ scenario: z.string(), figure })).optional(),
  // A console section of an older shape compares nothing; the other sections still compare.
  console: z
    .object({
      atLoad: figure,
      onePerson: z.array(z.object({ operation: z.string(), figure })),
    })
    .optional()
    .catch(undefined),
  bulk: z.object({ ratio: z.number() }).optional(),
  pace: z.object({ ratio: z.number() }).optional(),
});

export type SavedRun = z.infer<typeof savedRun>;

/** Every ratio of a run, by a name that stays the same from run to run. */
function ratiosOf(run: SavedRun): Map<string, number> {
  const ratios = new Map<string, number>();
  for (const { scenario, figure } of run.service ?? []) ratios.set(`service: ${scenario}`, figure.ratio);
  if (run.console) {
    ratios.set('console: get-or-create at 32 connections', run.console.atLoad.ratio);
    for (const { operation, figure } of run.console.onePerson)
      ratios.set(`one person: ${operation}`, figure.ratio);
  }
  if (run.bulk) ratios.set('bulk: job runner / typed client', run.bulk.ratio);
  if (run.pace) ratios.set('pace: job runner / paced client', run.pace.ratio);
  return ratios;
}

export interface Comparison {
  figure: string;
  previous: number;
  current: number;
  /** current / previous */
  change: number;
  within: boolean;
}

/** The figures both runs have; a previous file that does not read as a run compares nothing. */
export function compareRuns(previous: unknown, current: SavedRun): Comparison[] {
  const parsed = savedRun.safeParse(previous);
  if (!parsed.success) return [];
  const before = ratiosOf(parsed.data);
  const comparisons: Comparison[] = [];
  for (const [name, value] of ratiosOf(current)) {
    const earlier = before.get(name);
    if (earlier === undefined || earlier === 0) continue;
    const change = value / earlier;
    comparisons.push({
      figure: name,
      previous: earlier,
      current: value,
      change: Math.round(change * 100) / 100,
      within: Math.abs(change - 1) <= REPEAT_TOLERANCE,
    });
  }
  return comparisons;
}
