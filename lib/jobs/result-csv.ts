/**
 * A job's result as CSV: one line per row of the job, in its order, with what happened to it.
 * Tokens only when the person asked and may see them. Cells that a spreadsheet would run as a
 * formula are neutralised, as in the audit export: ids and names come from customers' files.
 */
import { spreadsheetCsv } from '@/lib/audit/csv';
import type { ResultRow } from './result-rows';

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
  return spreadsheetCsv(
    columns,
    rows.map((row) => [
      row.line,
      row.userGroupId,
      row.name,
      row.teamId,
      row.newUserGroup,
      row.status,
      row.error,
      row.tokenFingerprint,
      ...(withTokens ? [row.token] : []),
    ]),
  );
}
