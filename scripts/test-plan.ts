/**
 * The first step of `npm test`: one screen saying what will run, in which order, and roughly how
 * long each step takes on an idle 2-core machine (measured step by step on one, 2026-11-26: about
 * 13 min in all; a busy machine takes up to twice as long). Counts come from the files, so they stay true as tests are added.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const skipped = new Set(['node_modules', '.next', '.git', 'data', 'test-results', 'playwright-report']);

function filesUnder(dir: string, matches: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(full, matches));
    else if (matches(entry.name)) found.push(full);
  }
  return found;
}

const unitFiles = ['lib', 'app', 'components', 'bench', 'scripts'].flatMap((dir) =>
  filesUnder(dir, (name) => /\.test\.tsx?$/.test(name)),
);
const e2eSpecs = filesUnder('e2e', (name) => name.endsWith('.spec.ts'));

const steps: Array<[string, string, string]> = [
  ['lint', 'Biome (format and lint), then knip (unused files, exports, dependencies)', '~5 s'],
  ['typecheck', 'tsc --noEmit, strict', '~15 s'],
  [
    'test:unit',
    `Vitest: ${unitFiles.length} test files against real servers, SQLite, and PostgreSQL and Redis when they answer on 127.0.0.1`,
    '~40 s',
  ],
  [
    'test:e2e',
    `npm run build (Next and the compiled server), then test:build (the page budget from its manifests, scripts/page-budget.ts, and cn's class map against tailwind-merge), then Playwright: ${e2eSpecs.length} spec files in Chromium, one worker, against the real console`,
    '~7 min',
  ],
  [
    'test:postgres',
    "the console's database suites and e2e journeys again on PostgreSQL (one SKIPPED line without it)",
    '~3 min',
  ],
];

const width = Math.max(...steps.map(([name]) => name.length));
process.stdout.write(
  [
    'npm test runs, in order, stopping at the first failure:',
    ...steps.map(([name, what, time], n) => `  ${n + 1}. ${name.padEnd(width)}  ${time.padEnd(16)} ${what}`),
    'One step alone: npm run lint | typecheck | test:unit | test:e2e | test:postgres.',
    '',
  ].join('\n'),
);
