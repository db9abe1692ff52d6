/**
 * Time is a dependency (lib/clock.ts): server code takes the clock handed down from the composition
 * root (lib/server/index.ts) instead of reading the process's. A read of the real clock anywhere else
 * makes a test with a fixed moment pass or fail by the calendar (main went red that way on
 * 2026-11-27). This scans lib/ and app/ (tests aside) for the three ways of reading it, and for
 * `realClock` named where no process begins: a module that falls back to it when its caller hands no
 * clock stamps with the process's time, not the server's (issue 42).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const READS = /Date\.now\(\)|new Date\(\)|performance\.now\(\)/g;

/**
 * Files that still read the process's clock, each with why: a file leaves this list when its reads
 * are gone (the test says so).
 */
const notYetHandedTheClock = new Set<string>([]);

/**
 * Where a process (or a browser page) begins and so picks its clock, each with why; everything else
 * is handed one. bench/, scripts/ and e2e/ are roots of their own and are not scanned; tests and
 * lib/testing/ pick their clocks freely.
 */
const realClockRoots = new Map<string, string>([
  [
    'lib/server/index.ts',
    "the console server's composition root: the process's clock unless a test builds it on one",
  ],
  ['lib/launcher/serve-console.ts', 'the launcher serves the console on the process’s clock'],
  ['lib/launcher/start.ts', '`npm start`: the launcher process begins here'],
  ['lib/launcher/migrate.ts', '`npm run migrate`: a process of its own'],
  ['lib/audit-chain/cli.ts', 'the audit chain command line: a process of its own'],
  ['lib/user-group-service/cli.ts', "the service's command line: its clock unless a test parent moves one"],
  [
    'lib/user-group-service/api-keys.ts',
    "the service's key administration: each call opens its own database, as the CLI does",
  ],
  ['lib/browser-client/step-up-prompt.ts', 'browser code: no server hands the page a clock'],
  ['app/(console)/_components/paste-token-console.tsx', 'browser code: no server hands the page a clock'],
  ['lib/jobs/test-support.ts', 'test support: jobs run against a real service, paced by real HTTP'],
  [
    'lib/user-group-service/test-support.ts',
    "test support: the test service's clock unless a test hands its own",
  ],
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/** The code of a file without its comments (a comment may name what it does not do). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const readsIn = (file: string) =>
  code(readFileSync(path.join(root, file), 'utf8'))
    .split('\n')
    .flatMap((line, n) => [...line.matchAll(READS)].map((match) => `${file}:${n + 1}: ${match[0]}`));

const REAL_CLOCK = /\brealClock\b/g;

const realClockIn = (file: string) =>
  code(readFileSync(path.join(root, file), 'utf8'))
    .split('\n')
    .flatMap((line, n) => [...line.matchAll(REAL_CLOCK)].map(() => `${file}:${n + 1}: ${line.trim()}`));

describe('reads of the real clock', () => {
  const files = ['lib', 'app'].flatMap(sourceFiles).filter((file) => file !== 'lib/clock.ts');

  it('are only in lib/clock.ts: everything else takes the clock it is handed', () => {
    const reads = files.filter((file) => !notYetHandedTheClock.has(file)).flatMap(readsIn);
    expect(reads).toEqual([]);
  });

  it('lists no file that has stopped reading it', () => {
    const clean = [...notYetHandedTheClock].filter((file) => readsIn(file).length === 0);
    expect(clean).toEqual([]);
  });

  it('finds a read when there is one', () => {
    expect(code('const at = new Date(); // new Date() is not read here').match(READS)).toEqual([
      'new Date()',
    ]);
  });

  it('name realClock only where a process begins: everything else is handed the clock', () => {
    const named = files
      .filter((file) => !file.startsWith('lib/testing/') && !realClockRoots.has(file))
      .flatMap(realClockIn);
    expect(named).toEqual([]);
  });

  it('lists no root that has stopped naming it', () => {
    const clean = [...realClockRoots.keys()].filter((file) => realClockIn(file).length === 0);
    expect(clean).toEqual([]);
  });

  it('finds realClock named in code, not in a comment', () => {
    expect(code('f(clock = realClock); // not realClock here').match(REAL_CLOCK)).toEqual(['realClock']);
  });
});
