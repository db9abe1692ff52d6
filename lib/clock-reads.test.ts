/**
 * Time is a dependency (lib/clock.ts): server code takes the clock handed down from the composition
 * root (lib/server/index.ts) instead of reading the process's. A read of the real clock anywhere else
 * makes a test with a fixed moment pass or fail by the calendar (main went red that way on
 * 2026-11-27). This scans lib/ and app/ (tests aside) for the three ways of reading it.
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
});
