/**
 * A job's result as CSV: one line per row of the job, in its order, with what happened to it.
 * Tokens only when the person asked and may see them. Cells that a spreadsheet would run as a
 * formula are neutralised, as in the audit export: ids and names come from customers' files.
 */
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from '@/lib/audit/csv';
import type { ResultRow } from './store';

export function jobResultToCsv(rows: readonly ResultRow[], withTokens: boolean): string {
  const columns = [
    'line',
    'user_group_id',
    'name',
    'team_id',
    'new_user_group',
    'status',
    'note',
    'token_fingerprint',
    ...(withTokens ? ['token'] : []),
  ];
  const cell = (value: string | number | boolean | null | undefined) =>
    value === null || value === undefined ? '' : neutraliseFormula(String(value));
  const records = rows.map((row) => [
    cell(row.line),
    cell(row.userGroupId),
    cell(row.name),
    cell(row.teamId),
    cell(row.newUserGroup),
    cell(row.status),
    cell(row.error),
    cell(row.tokenFingerprint),
    ...(withTokens ? [cell(row.token)] : []),
  ]);
  return stringify(records, { header: true, columns, quoted_match: /[",\r\n]/, record_delimiter: '\r\n' });
}
