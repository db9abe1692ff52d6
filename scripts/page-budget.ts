/**
 * Holds every page to its script budget (scripts/page-weight.ts), from the build's manifests: bytes,
 * not time, so the same build always passes or always fails. `npm run test:e2e` runs it right after
 * `npm run build`, before Playwright; `tsx scripts/page-budget.ts [build dir]` runs it alone (the
 * build dir is `.next` unless named). Exits 1 naming each page over its budget.
 */
import path from 'node:path';
import { measurePageWeight, overBudget } from './page-weight';

const result = await measurePageWeight(path.resolve(process.argv[2] ?? '.next'));
process.stdout.write(
  [
    `page weight: script gzip (level ${result.gzipLevel}) from the build's manifests; the empty page ${result.emptyPage.kB} kB (at most ${result.emptyPageBudgetKB}), every page at most +${result.budgetKB} kB over it`,
    ...result.pages.map(
      (page) => `  ${page.page.padEnd(34)} ${`+${page.deltaKB}`.padStart(7)} kB (${page.kB} kB)`,
    ),
    '',
  ].join('\n'),
);
const over = overBudget(result);
if (over.length > 0) {
  process.stderr.write(
    `\nover budget:\n${over.map((line) => `  ${line}`).join('\n')}\nLoad what a page needs only on use (next/dynamic, import() in the handler): bench/README.md, "Page weight".\n`,
  );
  process.exitCode = 1;
}
