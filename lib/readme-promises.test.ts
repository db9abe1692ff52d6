import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// README.md's "Promises and the tests that hold them" names, for each promise the README makes, the
// test that would fail without it. A renamed or deleted test would leave a promise held by nothing
// while CI stays green (five README promises were false in one round): this fails instead.

const root = path.resolve(import.meta.dirname, '..');
const SECTION = '## Promises and the tests that hold them';
const MIN_ROWS = 25;

interface PromiseRow {
  promise: string;
  file: string;
  title: string;
}

/** The rows of the first table under the section's heading (header and separator left out). */
function promiseRows(readme: string): PromiseRow[] {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) return [];
  const rows: PromiseRow[] = [];
  let inTable = false;
  for (const line of readme.slice(start + SECTION.length + 2).split('\n')) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const header = !inTable;
    inTable = true;
    if (header || cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    // A row of another width (a `|` inside a cell) is kept whole, with no file or title to pass.
    const [promise = '', file = '', title = ''] = cells.length === 3 ? cells : [line];
    rows.push({ promise, file: file.replace(/^`|`$/g, ''), title });
  }
  return rows;
}

/**
 * The titles of the tests, describes and teardowns in a source, as written: the string literal
 * (quotes, double quotes or a template, `%s` and `${…}` left as they are) that is the first argument
 * of `test(`, `it(`, `describe(`, `teardown(`, `setup(` or an alias such as `apiTest(` (with `.each`,
 * `.skip`, `.describe`… after the name), or of the call an `.each([…])(` or `.skipIf(…)(` returns.
 */
function testTitles(source: string): Set<string> {
  const titles = new Set<string>();
  const opening = /(?:\b(?:test|it|describe|teardown|setup|\w+Test)(?:\.\w+)*|\))\s*\(\s*(['"`])/g;
  for (const match of source.matchAll(opening)) {
    const quote = match[1] as string;
    let title = '';
    for (let at = (match.index ?? 0) + match[0].length; at < source.length; at++) {
      const char = source[at] as string;
      if (char === '\\') {
        title += source[at + 1] ?? '';
        at++;
      } else if (char === quote) {
        titles.add(title);
        break;
      } else title += char;
    }
  }
  return titles;
}

/** What is wrong with each row: no file or title, a file not a test's or missing, a title it lacks. */
function rowProblems(rows: PromiseRow[]): string[] {
  const problems: string[] = [];
  for (const { promise, file, title } of rows) {
    if (!file || !title) problems.push(`${promise}: names no test file and title`);
    else if (!/\.(test|spec|teardown|setup)\.tsx?$/.test(file))
      problems.push(`${promise}: ${file} is not a test file`);
    else if (!existsSync(path.join(root, file))) problems.push(`${promise}: ${file} does not exist`);
    else if (!testTitles(readFileSync(path.join(root, file), 'utf8')).has(title))
      problems.push(`${promise}: ${file} has no test "${title}"`);
  }
  return problems;
}

describe("README's promises", () => {
  const rows = promiseRows(readFileSync(path.join(root, 'README.md'), 'utf8'));

  it(`are listed in a table of at least ${MIN_ROWS} rows, each naming a test file and a title`, () => {
    expect(rows.length).toBeGreaterThanOrEqual(MIN_ROWS);
    expect(rows.filter((row) => !row.promise || !row.file || !row.title)).toEqual([]);
  });

  it('are each held by a test that exists under the title the table names', () => {
    expect(rowProblems(rows)).toEqual([]);
  });

  it('catches a wrong row: a missing file, a source file, a title that is not a test, a cell too many', () => {
    const table = [
      SECTION,
      '',
      '| Promise | Test file | Test title |',
      '|---|---|---|',
      '| held | `lib/readme-promises.test.ts` | are each held by a test that exists under the title the table names |',
      '| moved | `lib/no-such.test.ts` | anything |',
      '| not a test | `lib/roles.ts` | can |',
      '| renamed | `lib/readme-promises.test.ts` | are each held by a test that is gone |',
      "| only a string | `lib/readme-promises.test.ts` | a title that is not a test's |",
      '| a | cell too many | `lib/roles.test.ts` | grants nothing without a role |',
      '',
      'After the table.',
      '| not a row | `lib/no-such.test.ts` | anything |',
    ].join('\n');
    const parsed = promiseRows(`# README\n\n${table}\n`);
    expect(parsed.map((row) => row.promise)).toEqual([
      'held',
      'moved',
      'not a test',
      'renamed',
      'only a string',
      '| a | cell too many | `lib/roles.test.ts` | grants nothing without a role |',
    ]);
    expect(rowProblems(parsed)).toEqual([
      'moved: lib/no-such.test.ts does not exist',
      'not a test: lib/roles.ts is not a test file',
      'renamed: lib/readme-promises.test.ts has no test "are each held by a test that is gone"',
      `only a string: lib/readme-promises.test.ts has no test "a title that is not a test's"`,
      '| a | cell too many | `lib/roles.test.ts` | grants nothing without a role |: names no test file and title',
    ]);
    expect(promiseRows('# README without the section\n')).toEqual([]);
  });

  it('reads titles as written: quoted, on the next line, templates and each-tables', () => {
    const source = [
      "test('plain', () => {});",
      'it(\n  "on the next line",\n  () => {},\n);',
      "it.each([['a', 1]])('%s is %d', () => {});",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a test's source as text, its template kept
      "test.describe(`as ${'role'}`, () => {});",
      "teardown('it\\'s escaped', () => {});",
      "apiTest('an alias', async () => {});",
      "expect(value).toBe('not a title');",
    ].join('\n');
    expect([...testTitles(source)]).toEqual([
      'plain',
      'on the next line',
      '%s is %d',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's title as written
      "as ${'role'}",
      "it's escaped",
      'an alias',
    ]);
  });
});
