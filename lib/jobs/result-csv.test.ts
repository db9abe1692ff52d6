import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { jobResultToCsv } from './result-csv';
import type { ResultRow } from './result-rows';

const row: ResultRow = {
  line: 2,
  userGroupId: '=HYPERLINK("x")',
  name: 'Acme, Inc.',
  teamId: 7,
  newUserGroup: true,
  status: 'done',
  error: null,
  tokenFingerprint: 'abcdef012345',
  token: 'f'.repeat(64),
};

describe('a job result as CSV', () => {
  it('carries the token column only when asked, and neutralises formulas', () => {
    const without = parse(jobResultToCsv([row], false), { columns: true }) as Record<string, string>[];
    expect(without).toEqual([
      {
        line: '2',
        user_group_id: `'=HYPERLINK("x")`,
        name: 'Acme, Inc.',
        team_id: '7',
        new_user_group: 'true',
        status: 'done',
        note: '',
        token_fingerprint: 'abcdef012345',
      },
    ]);
    const withTokens = parse(jobResultToCsv([row], true), { columns: true }) as Record<string, string>[];
    expect(withTokens[0]?.token).toBe('f'.repeat(64));
  });
});
