/**
 * The audit log as CSV. A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage
 * return, which some strip before looking) as a formula; such cells get a leading `'`, which shows
 * the text as written. Values come from operators and from people naming user groups: untrusted.
 */
import { stringify } from 'csv-stringify/sync';
import type { AuditEvent } from './store';

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

const auditCsvColumns = [
  ['at', 'time (UTC)'],
  ['operator_email', 'operator'],
  ['operator_id', 'operator id'],
  ['action', 'action'],
  ['environment', 'environment'],
  ['user_group_id', 'user group id'],
  ['user_group_name', 'user group name'],
  ['outcome', 'outcome'],
  ['request_id', 'request id'],
  ['token_fingerprint', 'token fingerprint'],
  ['previous_token_fingerprint', 'previous token fingerprint'],
  ['detail', 'detail'],
] as const satisfies ReadonlyArray<readonly [keyof AuditEvent, string]>;

export function auditEventsToCsv(events: readonly AuditEvent[]): string {
  return spreadsheetCsv(
    auditCsvColumns.map(([, header]) => header),
    events.map((event) => auditCsvColumns.map(([key]) => event[key])),
  );
}

/**
 * Rows as CSV a spreadsheet opens safely: every cell neutralised, empty for null, quoted only where
 * needed, CRLF lines. The console's other exports (bulk job results) are written with it too.
 */
export function spreadsheetCsv(header: readonly string[], records: readonly (readonly unknown[])[]): string {
  const cell = (value: unknown) =>
    value === null || value === undefined ? '' : neutraliseFormula(String(value));
  return stringify(
    records.map((record) => record.map(cell)),
    { header: true, columns: [...header], quoted_match: /[",\r\n]/, record_delimiter: '\r\n' },
  );
}
