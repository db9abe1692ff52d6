import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { auditEventsToCsv, neutraliseFormula } from './csv';
import type { AuditEvent } from './store';

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 1,
  at: '2026-11-21T10:00:00.000Z',
  operator_id: 'op1',
  operator_email: 'ann@example.com',
  action: 'get-or-create',
  environment: 'Customer',
  user_group_id: 'acme',
  user_group_name: 'Acme',
  outcome: 'success',
  request_id: 'req-1',
  token_fingerprint: 'abcdef012345',
  previous_token_fingerprint: null,
  detail: null,
  ...overrides,
});

describe('neutraliseFormula', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t'=1"],
    ['\r=1', "'\r'=1"],
    ['acme=1', 'acme=1'],
    ['', ''],
    ["'quoted", "'quoted"],
    // Security round 3: where the separator is `;`, the spreadsheet splits a cell and runs what follows.
    ['Acme GmbH;=1+2;', "Acme GmbH;'=1+2;"],
    ['a,-1;+2', "a,'-1;'+2"],
    ['acme;ok', 'acme;ok'],
  ])('%j becomes %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });
});

describe('auditEventsToCsv', () => {
  it('writes a header and one row per event, nulls empty', () => {
    const csv = auditEventsToCsv([event({})]);
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header).toBe(
      '"time (UTC)","operator","operator id","action","environment","user group id","user group name","outcome","request id","token fingerprint","previous token fingerprint","detail"',
    );
    expect(row).toBe(
      '"2026-11-21T10:00:00.000Z","ann@example.com","op1","get-or-create","Customer","acme","Acme","success","req-1","abcdef012345","",""',
    );
  });

  it('opens safely where the separator is `;`: every cell quoted, and no formula after any separator', () => {
    const csv = auditEventsToCsv([event({ user_group_name: 'Acme GmbH;=1+2;' })]);
    // Read as a `;`-locale spreadsheet reads it: split at every `;`, quotes or not.
    const pieces = csv.trimEnd().split('\r\n')[1]?.split(';') ?? [];
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece).not.toMatch(/^[=+\-@]/);
    expect(parse(csv)[1]?.[6]).toBe("Acme GmbH;'=1+2;");
  });

  it('neutralises formulas and quotes separators so the cells read back as written', () => {
    const hostile = '=HYPERLINK("http://evil.example","x"),\n-1';
    const csv = auditEventsToCsv([event({ user_group_id: hostile, user_group_name: '@cmd' })]);
    const rows: string[][] = parse(csv);
    expect(rows[1]?.[5]).toBe(`'=HYPERLINK("http://evil.example","x"),\n'-1`);
    expect(rows[1]?.[6]).toBe("'@cmd");
  });
});
