/**
 * The console's one CSV writer (the audit log, a bulk job's result and a rotation's preview). A
 * spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some strip
 * before looking) as a formula. Quoting every cell is not enough: where the spreadsheet's separator
 * is `;` (most of Europe) it splits `"Acme GmbH;=1+2;"` at the `;` and runs `=1+2`. So every
 * such character at the start of a cell or right after a `,`, `;`, tab or line break gets a leading `'`, which
 * shows the text as written. Values come from operators and from people naming user groups:
 * untrusted.
 */
import { stringify } from 'csv-stringify/sync';
import type { AuditEvent } from './store';

/** Every place a spreadsheet could start a cell (the start, or after a separator) before a formula's sign. */
const FORMULA_START = /(?<=^|[,;\t\r\n])(?=[=+\-@\t\r])/g;

export function neutraliseFormula(value: string): string {
  return value.replace(FORMULA_START, "'");
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

/** The export's CSV: its header line with the first batch only, so batches can be streamed in turn. */
export function auditEventsToCsv(events: readonly AuditEvent[], { header = true } = {}): string {
  return spreadsheetCsv(
    auditCsvColumns.map(([, title]) => title),
    events.map((event) => auditCsvColumns.map(([key]) => event[key])),
    { header },
  );
}

/**
 * Rows as CSV a spreadsheet opens safely in any locale: every cell neutralised and quoted (empty
 * for null), so no separator inside a cell splits it, CRLF lines.
 */
export function spreadsheetCsv(
  header: readonly string[],
  records: readonly (readonly unknown[])[],
  options: { header?: boolean } = {},
): string {
  const cell = (value: unknown) =>
    value === null || value === undefined ? '' : neutraliseFormula(String(value));
  return stringify(
    records.map((record) => record.map(cell)),
    {
      header: options.header ?? true,
      columns: [...header],
      quoted: true,
      quoted_empty: true,
      record_delimiter: '\r\n',
    },
  );
}
