import { describe, expect, it } from 'vitest';
import { MAX_CSV_ROWS, readGetOrCreateCsv } from './csv';

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
    expect(refusal('user_group_id,name\n"acme,Acme')).toMatch(/not valid CSV/);
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
});
