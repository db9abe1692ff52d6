/**
 * A bulk get-or-create CSV, read and checked before anything is sent: columns user_group_id, name,
 * mapping and properties (JSON cells). Every row is checked with the same contract the single
 * form uses; bad rows are reported with their line and column, the good ones become the job.
 * Parsed by csv-parse; the product's own part is what a row must be.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { nestingProblem, parseJsonText } from '@/lib/json-text';
import {
  getOrCreateRequestSchema,
  mappingSchema,
  nameSchema,
  propertiesSchema,
  userGroupIdSchema,
} from '@/lib/user-group-api/contract';

export const MAX_CSV_ROWS = 10_000;
const MAX_CSV_BYTES = 5 * 1024 * 1024;
const csvColumns = ['user_group_id', 'name', 'mapping', 'properties'] as const;

export interface GetOrCreateRow {
  line: number;
  user_group_id: string;
  name?: string;
  mapping?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}

export interface InvalidRow {
  line: number;
  /** The id as written, when there is one, to find the row in the file. */
  userGroupId: string | null;
  problems: string[];
}

export type CsvReading =
  | { ok: true; rows: GetOrCreateRow[]; invalid: InvalidRow[] }
  | { ok: false; message: string };

export function readGetOrCreateCsv(text: string): CsvReading {
  if (Buffer.byteLength(text) > MAX_CSV_BYTES) {
    return {
      ok: false,
      message: `The file is over ${MAX_CSV_BYTES / 1024 / 1024} MB: split it into several jobs.`,
    };
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  let header: string[] = [];
  try {
    records = parse(text, {
      bom: true,
      columns: (names: string[]) => {
        header = names.map((name) => name.trim());
        return header;
      },
      skip_empty_lines: true,
      info: true,
      // More rows than allowed: stop reading, the count is all that matters.
      to: MAX_CSV_ROWS + 1,
    });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return {
        ok: false,
        message: `The file is not valid CSV${line ? ` (line ${line})` : ''}: ${csvProblem(error.code)}.`,
      };
    }
    throw error;
  }
  const missing = ['user_group_id'].filter((column) => !header.includes(column));
  if (missing.length > 0 || header.length === 0) {
    return {
      ok: false,
      message: `The first line must name the columns: user_group_id (required), name, mapping, properties. Missing: ${missing.join(', ') || 'all'}.`,
    };
  }
  const unknown = header.filter((column) => !(csvColumns as readonly string[]).includes(column));
  if (unknown.length > 0) {
    return {
      ok: false,
      message: `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Use user_group_id, name, mapping, properties.`,
    };
  }
  if (records.length > MAX_CSV_ROWS) {
    return {
      ok: false,
      message: `The file has more than ${MAX_CSV_ROWS.toLocaleString('en-US')} rows: split it into several jobs.`,
    };
  }
  if (records.length === 0) return { ok: false, message: 'The file has no rows under its header.' };

  const rows: GetOrCreateRow[] = [];
  const invalid: InvalidRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { record, info } of records) {
    const line = info.lines;
    const problems: string[] = [];
    const id = record.user_group_id ?? '';
    const row: GetOrCreateRow = { line, user_group_id: id };
    const checkedId = userGroupIdSchema.safeParse(id);
    if (!checkedId.success)
      problems.push(`user_group_id ${checkedId.error.issues[0]?.message ?? 'is not valid'}`);
    else {
      const seen = firstLineOf.get(id);
      if (seen !== undefined) problems.push(`user_group_id “${clip(id)}” is also on line ${seen}`);
      else firstLineOf.set(id, line);
    }
    if (record.name) {
      const checked = nameSchema.safeParse(record.name);
      if (checked.success) row.name = checked.data;
      else problems.push(`name ${checked.error.issues[0]?.message ?? 'is not valid'}`);
    }
    for (const column of ['mapping', 'properties'] as const) {
      const cell = record[column] ?? '';
      if (cell.trim() === '') continue;
      // Before parsing (which would overflow the stack), and in its own words rather than "not JSON".
      const tooDeep = nestingProblem(cell);
      if (tooDeep) {
        problems.push(
          `${column} ${tooDeep.problem} (line ${tooDeep.line}, column ${tooDeep.column} of the cell)`,
        );
        continue;
      }
      const json = parseJsonText(cell);
      if (json.kind === 'invalid') {
        problems.push(
          `${column} is not JSON (line ${json.line}, column ${json.column} of the cell): ${json.problem}`,
        );
        continue;
      }
      if (json.kind !== 'valid') continue;
      const checked = (column === 'mapping' ? mappingSchema : propertiesSchema).safeParse(json.value);
      if (checked.success) row[column] = checked.data;
      else problems.push(`${column} ${checked.error.issues[0]?.message ?? 'is not valid'}`);
    }
    if (problems.length === 0 && getOrCreateRequestSchema.safeParse(row).success) rows.push(row);
    else invalid.push({ line, userGroupId: id ? clip(id) : null, problems });
  }
  return { ok: true, rows, invalid };
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** csv-parse's refusals in the console's words (its own messages name its options and internals). */
function csvProblem(code: string): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text follows a closing quote (a quote inside a quoted field is written twice: "")';
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return 'the line has a different number of fields than the first line';
    default:
      return 'it could not be read as comma-separated values';
  }
}
