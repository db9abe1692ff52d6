/** The scale section's tables (bench/scale.ts measures them), in the bench's usual style. */
import os from 'node:os';
import type { ScaleBench } from './scale';
import { GROWTH_FLOOR_MS, SCALE_GOALS, type ScaleFigure } from './scale-figures';
import { type ExportMemoryRun, SETTLE_MS } from './scale-measure';
import type { PruneRun } from './scale-prune';

const n = (value: number) => value.toLocaleString('en-US');
const yes = (ok: boolean) => (ok ? 'yes' : 'NO');

export function printScale(scale: ScaleBench): void {
  const { sizes, setUp, dialect } = scale;
  console.info(
    `\nscale, ${dialect}: two built consoles side by side, small ${n(sizes.small.audit)} audit entries and ${n(sizes.small.groups)} groups, large ${n(sizes.large.audit)} and ${n(sizes.large.groups)} (loaded in ${setUp.small.loadSeconds} / ${setUp.large.loadSeconds} s, sealed by the consoles in ${setUp.small.sealSeconds} / ${setUp.large.sealSeconds} s); through their HTTP routes as a signed-in admin, one request at a time, ${scale.rounds} rounds after one of warm-up, each request at both sizes in the same round (the order alternating); load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  console.info(
    `p50 / p95 ms to the answer's last byte; rows: what the answer held (every figure must hold some, the no-match search none); growth = large p95 / small p95, both counted from ${GROWTH_FLOOR_MS} ms (goal ≤ ${SCALE_GOALS.growth}); p95 goal at both sizes: JSON routes < ${SCALE_GOALS.jsonP95Ms} ms, the /audit page < ${SCALE_GOALS.pageP95Ms} ms`,
  );
  console.table(
    scale.figures.map((figure) => ({
      request: figure.request,
      small: `${figure.small.p50Ms} / ${figure.small.p95Ms}`,
      large: `${figure.large.p50Ms} / ${figure.large.p95Ms}`,
      'rows small / large': `${figure.small.rows} / ${figure.large.rows}`,
      growth: figure.growth,
      [`≤ ${SCALE_GOALS.growth}`]: yes(figure.withinGrowth),
      'p95 goal': figure.goalP95Ms ?? '—',
      within: figure.goalP95Ms === null ? '—' : yes(figure.withinP95),
      'not 200 small / large': failed(figure),
    })),
  );
  const { figures, heavy } = scale.underLoad;
  console.info(
    `\nat the large size: health and sign-in at rest, then while ${heavy.length} of the heaviest ran at once, each in a loop of its own (completed meanwhile: ${heavy.map((h) => `${h.request} ×${h.completed}${h.failed ? `, ${h.failed} not 200` : ''}`).join('; ')}); p50 / p95 ms, goal: p95 within ${SCALE_GOALS.responsivenessMs} ms of at rest`,
  );
  console.table(
    figures.map((figure) => ({
      figure: figure.figure,
      'at rest': `${figure.atRest.p50Ms} / ${figure.atRest.p95Ms} (${figure.atRest.samples})`,
      'heaviest running': `${figure.underLoad.p50Ms} / ${figure.underLoad.p95Ms} (${figure.underLoad.samples})`,
      'p95 added ms': figure.addedMs,
      [`within ${SCALE_GOALS.responsivenessMs} ms`]: yes(figure.within),
    })),
  );
  console.info(
    "\nthe console's resident memory (VmRSS of its one process) over three exports in a row at the large size, three days with the reads each",
  );
  console.table(
    scale.exportMemory.exports.map((run, index) => ({
      export: index + 1,
      rows: run.rows,
      s: run.seconds,
      'RSS before MB': run.beforeMb,
      'peak MB': run.peakMb,
      'after MB': run.afterMb,
    })),
  );
  const slowedDown = scale.underLoad.figures.filter((figure) => !figure.within).map((f) => f.figure);
  const keptMemory = printSettled(scale.exportMemory);
  if (scale.prune) slowedDown.push(...printPrune(scale.prune));
  warnMissed(scale.figures, slowedDown);
  if (keptMemory) console.warn(`!!! ${keptMemory} !!!`);
}

/** RSS once idle after the exports against before the first; answers the miss, if the console kept memory. */
function printSettled({ exports, settledMb }: ExportMemoryRun): string | null {
  const firstMb = exports[0]?.beforeMb ?? 0;
  const kept = Math.round((settledMb / firstMb) * 100) / 100;
  const within = kept <= SCALE_GOALS.exportKept;
  console.info(
    `after ${SETTLE_MS / 1000} s idle: ${settledMb} MB, ${kept}× the ${firstMb} MB before the first export (goal ≤ ${SCALE_GOALS.exportKept}×: ${within ? 'yes' : 'NO'})`,
  );
  return within ? null : `the console kept memory after the exports: ${kept}× after idling`;
}

/** The pruning phase's table; answers the figure that missed its goal, if health did. */
function printPrune(prune: PruneRun): string[] {
  const { atRest, underLoad, addedMs, within } = prune.health;
  console.info(
    `\nretention at the large size: restarted with AUDIT_RETENTION_DAYS=${prune.days}, ${n(prune.due)} entries past it; the pass pruned ${n(prune.pruned)} in ${prune.seconds} s (${n(prune.entriesPerSecond)} a second); GET /api/health every 100 ms before the pass and during it, p50 / p95 / max ms, goal: p95 within ${SCALE_GOALS.responsivenessMs} ms of before`,
  );
  console.table([
    {
      figure: prune.health.figure,
      'before the pass': `${atRest.p50Ms} / ${atRest.p95Ms} / ${prune.healthMaxMs.atRest} (${atRest.samples})`,
      pruning: `${underLoad.p50Ms} / ${underLoad.p95Ms} / ${prune.healthMaxMs.pruning} (${underLoad.samples})`,
      'p95 added ms': addedMs,
      [`within ${SCALE_GOALS.responsivenessMs} ms`]: yes(within),
    },
  ]);
  return within ? [] : ['GET /api/health while pruning'];
}

function failed({ small, large }: ScaleFigure): string {
  if (small.failures.length === 0 && large.failures.length === 0) return '';
  const first = [...small.failures, ...large.failures][0];
  return `${small.failures.length} / ${large.failures.length} (${first})`;
}

function warnMissed(figures: ScaleFigure[], slowedDown: string[]): void {
  const grew = figures
    .filter((figure) => !figure.withinGrowth)
    .map((figure) => `${figure.request} (${figure.growth}×)`);
  const slow = figures
    .filter((figure) => !figure.withinP95)
    .map((figure) => `${figure.request} (${figure.small.p95Ms} / ${figure.large.p95Ms} ms)`);
  const unanswered = figures.filter((figure) => !figure.answered).map((figure) => figure.request);
  if (unanswered.length > 0) {
    // Timed all the same (a person waited that long), but a figure over refusals is no figure.
    console.error(`\n!!! answered other than 200: ${unanswered.join(', ')} !!!\n`);
    process.exitCode = 1;
  }
  if (grew.length > 0) console.warn(`!!! grew more than ${SCALE_GOALS.growth}×: ${grew.join(', ')} !!!`);
  if (slow.length > 0) console.warn(`!!! over their p95 goal (small / large): ${slow.join(', ')} !!!`);
  if (slowedDown.length > 0)
    console.warn(
      `!!! slowed by more than ${SCALE_GOALS.responsivenessMs} ms while the heaviest ran: ${slowedDown.join(', ')} !!!`,
    );
}
