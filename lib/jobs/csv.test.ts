import { describe, expect, it } from 'vitest';
import { parseJsonObject } from '@/lib/user-group-service/request-body';
import { MAX_CSV_ROWS, readGetOrCreateCsv } from './csv';

/** A JSON object nesting `levels` objects deep, its own braces included. */
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A CSV cell, quoted. */
const cell = (text: string) => `"${text.replaceAll('"', '""')}"`;

describe('reading a bulk get-or-create CSV', () => {
  it('keeps good rows and reports each bad one with its line and what is wrong', () => {
    const text = [
      'user_group_id,name,mapping,properties',
      'acme,Acme Inc.,"{""schema_1"": ""ds_acme""}","{""plan"": ""pro""}"',
      'globex,Globex,,',
      'acme,Acme again,,',
      ',No id,,',
      'initech,Initech,"{""a"": }",',
      'umbrella,Umbrella,"[1]","{""x"": 1}"',
      `long,${'n'.repeat(256)},,`,
    ].join('\n');
    const reading = readGetOrCreateCsv(text);
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.rows).toEqual([
      {
        line: 2,
        user_group_id: 'acme',
        name: 'Acme Inc.',
        mapping: { schema_1: 'ds_acme' },
        properties: { plan: 'pro' },
      },
      { line: 3, user_group_id: 'globex', name: 'Globex' },
    ]);
    expect(reading.invalid.map((row) => [row.line, row.problems.join('; ')])).toEqual([
      [4, 'user_group_id “acme” is also on line 2'],
      [5, 'user_group_id must not be empty'],
      [6, expect.stringMatching(/^mapping is not JSON \(line 1, column 7 of the cell\)/)],
      [7, 'mapping must be a JSON object'],
      [8, 'name must be at most 255 characters'],
    ]);
  });

  it('refuses files it cannot read as a whole, saying why', () => {
    const refusal = (text: string) => {
      const reading = readGetOrCreateCsv(text);
      return reading.ok ? null : reading.message;
    };
    expect(refusal('name\nAcme')).toMatch(/Missing: user_group_id/);
    expect(refusal('user_group_id,colour\nacme,red')).toMatch(/Unknown column: colour/);
    expect(refusal('user_group_id\n')).toMatch(/no rows/);
    expect(refusal('user_group_id,name\n"acme,Acme')).toBe(
      'The file is not valid CSV (line 2): a quoted field is never closed.',
    );
    expect(refusal('user_group_id,name\n"acme"x,Acme')).toBe(
      'The file is not valid CSV (line 2): text follows a closing quote (a quote inside a quoted field is written twice: "").',
    );
    expect(refusal('user_group_id,name\nacme,Acme,extra')).toBe(
      'The file is not valid CSV (line 2): the line has a different number of fields than the first line.',
    );
    const tooMany = ['user_group_id', ...Array.from({ length: MAX_CSV_ROWS + 1 }, (_, n) => `g${n}`)].join(
      '\n',
    );
    expect(refusal(tooMany)).toMatch(/more than 10,000 rows/);
    const exactly = ['user_group_id', ...Array.from({ length: MAX_CSV_ROWS }, (_, n) => `g${n}`)].join('\n');
    expect(readGetOrCreateCsv(exactly)).toMatchObject({ ok: true, invalid: [] });
    expect(refusal(`user_group_id,name\n${'x,'.padEnd(5 * 1024 * 1024 + 10, 'y')}`)).toMatch(/over 5 MB/);
  });

  it('reads a byte-order mark, CRLF lines and spaces around column names', () => {
    const reading = readGetOrCreateCsv('\uFEFF user_group_id , name \r\nacme,Acme\r\n');
    expect(reading).toEqual({
      ok: true,
      rows: [{ line: 2, user_group_id: 'acme', name: 'Acme' }],
      invalid: [],
    });
  });

  it('reports a JSON cell nested deeper than the service takes as a bad row, and never overflows the stack', () => {
    const text = [
      'user_group_id,mapping,properties',
      `deep-63,,${cell(nestedObject(63))}`,
      `deep-64,,${cell(nestedObject(64))}`,
      // 200,000 levels: jsonc-parser recursed once per level and threw RangeError (a 500).
      `arrays,,${cell(`{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`)}`,
      `mapping,${cell(nestedObject(100_000))},`,
      `in-strings,,${cell(`{"s":"${'{['.repeat(100)}\\"${'{'.repeat(100)}"}`)}`,
    ].join('\n');
    const reading = readGetOrCreateCsv(text);
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.rows.map((row) => row.user_group_id)).toEqual(['deep-63', 'in-strings']);
    expect(reading.invalid).toEqual([
      {
        line: 3,
        userGroupId: 'deep-64',
        problems: ['properties nests deeper than 63 levels (line 1, column 316 of the cell)'],
      },
      {
        line: 4,
        userGroupId: 'arrays',
        problems: ['properties nests deeper than 63 levels (line 1, column 68 of the cell)'],
      },
      {
        line: 5,
        userGroupId: 'mapping',
        problems: ['mapping nests deeper than 63 levels (line 1, column 316 of the cell)'],
      },
    ]);
  });

  it('lets through exactly the nesting the service accepts once the cell is in a request body', () => {
    const body = (levels: number) =>
      Buffer.from(JSON.stringify({ user_group_id: 'g', properties: JSON.parse(nestedObject(levels)) }));
    const accepted = (levels: number) => {
      const reading = readGetOrCreateCsv(`user_group_id,properties\ng,${cell(nestedObject(levels))}`);
      return reading.ok && reading.rows.length === 1;
    };
    expect(accepted(63)).toBe(true);
    expect(() => parseJsonObject(body(63))).not.toThrow();
    expect(accepted(64)).toBe(false);
    expect(() => parseJsonObject(body(64))).toThrow(/nest at most 64 levels/);
  });
});
