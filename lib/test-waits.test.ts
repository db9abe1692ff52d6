/**
 * No unit test waits on real time: a test moves a testClock (lib/clock.ts), awaits an event the code
 * emits (a promise it resolves, a socket's close), or counts event-loop turns. This reads every test
 * file and fails on a sleep, a delayed setTimeout, vi.waitFor's polling, or a reading of the real
 * clock, outside the short list below, each entry saying why it still does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['lib', 'app', 'components', 'bench', 'scripts'];

/** What waits on real time, by name. */
const WAITS: Array<[string, RegExp]> = [
  ['Date.now()', /\bDate\.now\(\)/],
  ['performance.now()', /\bperformance\.now\(\)/],
  ['vi.waitFor', /\bvi\.waitFor\(/],
  ['sleep(ms)', /\bsleep\(\s*[\d_]+/],
];

/**
 * Files that still wait, and why: a real deadline is what they test, or they are not yet converted
 * (issue 42, item 2). Shrink it; never grow it without a reason a reviewer accepts.
 */
const ALLOWED: Record<string, string> = {
  'lib/clock.test.ts': 'tests realClock itself, which reads and sleeps on real time',
  'lib/launcher/console-http-server.test.ts':
    "Node's http server times a request head on its own clock (uv_hrtime), which no Clock moves: ~0.3 s",
};

function testFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.test\.tsx?$/.test(entry.name)) continue;
    const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!file.includes('node_modules/')) found.push(file);
  }
  return found;
}

/** setTimeout calls given a delay (a second argument at the call's own depth). */
function delayedTimeouts(source: string): number {
  let count = 0;
  for (const match of source.matchAll(/\bsetTimeout\(/g)) {
    let depth = 0;
    for (let at = (match.index ?? 0) + 'setTimeout'.length; at < source.length; at += 1) {
      const char = source[at];
      if (char === '(' || char === '{' || char === '[') depth += 1;
      else if (char === ')' || char === '}' || char === ']') {
        depth -= 1;
        if (depth === 0) break;
      } else if (char === ',' && depth === 1) {
        // `setTimeout(fn, 0)` yields a turn, it does not wait on the clock.
        if (!/^,\s*0\s*\)/.test(source.slice(at))) count += 1;
        break;
      }
    }
  }
  return count;
}

/** What in one file's source waits on real time. */
function realTimeWaits(source: string): string[] {
  const found = WAITS.filter(([, pattern]) => pattern.test(source)).map(([name]) => name);
  if (delayedTimeouts(source) > 0) found.push('setTimeout(…, ms)');
  return found;
}

describe('tests do not wait on real time', () => {
  const files = FOLDERS.flatMap(testFiles);

  it('finds the test files, and tells a wait from a turn', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('lib/test-waits.test.ts');
    expect(realTimeWaits('await new Promise((resolve) => setTimeout(resolve, 50));')).toEqual([
      'setTimeout(…, ms)',
    ]);
    expect(realTimeWaits('setTimeout(() => {\n  done();\n}, delay)')).toEqual(['setTimeout(…, ms)']);
    expect(realTimeWaits('await new Promise((resolve) => setImmediate(resolve));')).toEqual([]);
    expect(realTimeWaits('setTimeout(resolve, 0)')).toEqual([]);
    expect(realTimeWaits('const t = Date.now(); await vi.waitFor(check); await sleep(3_000);')).toEqual([
      'Date.now()',
      'vi.waitFor',
      'sleep(ms)',
    ]);
  });

  it('no test file outside the allow-list waits on real time', () => {
    const self = 'lib/test-waits.test.ts';
    const waiting = files
      .filter((file) => file !== self && !(file in ALLOWED))
      .map((file) => ({ file, waits: realTimeWaits(readFileSync(path.join(root, file), 'utf8')) }))
      .filter(({ waits }) => waits.length > 0);
    expect(waiting).toEqual([]);
  });

  it('keeps no allow-list entry that no longer waits', () => {
    const stale = Object.keys(ALLOWED).filter(
      (file) =>
        !files.includes(file) || realTimeWaits(readFileSync(path.join(root, file), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
