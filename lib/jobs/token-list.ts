/**
 * The tokens of a bulk rotation, as pasted or uploaded: one per line (a header line `token` or
 * `current_token` is skipped; a CSV's `token` column is read). Or the ids of groups chosen in the
 * directory, whose current tokens the job fetches itself. Checked before anything is sent.
 */
import { parse } from 'csv-parse/sync';
import { tokenSchema, userGroupIdSchema } from '@/lib/user-group-api/contract';
import type { InvalidRow } from './csv';

export const MAX_ROTATIONS = 10_000;

export interface RotateInput {
  line: number;
  token?: string;
  userGroupId?: string;
}

export type RotateReading =
  | { ok: true; rows: RotateInput[]; invalid: InvalidRow[] }
  | { ok: false; message: string };

const tooMany = `More than ${MAX_ROTATIONS.toLocaleString('en-US')} tokens: split them into several jobs.`;

export function readTokenList(text: string): RotateReading {
  let cells: { line: number; value: string }[];
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.includes(',')) {
    // A CSV: its token column, wherever it is.
    let records: { record: Record<string, string>; info: { lines: number } }[];
    try {
      records = parse(text, {
        bom: true,
        columns: (names: string[]) => names.map((name) => name.trim()),
        skip_empty_lines: true,
        info: true,
      });
    } catch {
      return { ok: false, message: 'The list is not valid CSV.' };
    }
    const first = records[0]?.record ?? {};
    const column = ['token', 'current_token'].find((name) => name in first);
    if (!column) return { ok: false, message: 'A CSV of tokens needs a column named token.' };
    cells = records.map(({ record, info }) => ({ line: info.lines, value: (record[column] ?? '').trim() }));
  } else {
    cells = text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .map((value, index) => ({ line: index + 1, value: value.trim() }))
      .filter((cell) => cell.value !== '' && !(cell.line === 1 && /^(current_)?token$/i.test(cell.value)));
  }
  if (cells.length > MAX_ROTATIONS) return { ok: false, message: tooMany };
  if (cells.length === 0) return { ok: false, message: 'Paste or upload at least one token.' };
  const rows: RotateInput[] = [];
  const invalid: InvalidRow[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of cells) {
    const checked = tokenSchema.safeParse(value);
    const earlier = seen.get(value);
    if (!checked.success)
      invalid.push({
        line,
        userGroupId: null,
        problems: [`token ${checked.error.issues[0]?.message ?? 'is not valid'}`],
      });
    else if (earlier !== undefined)
      invalid.push({ line, userGroupId: null, problems: [`the same token is on line ${earlier}`] });
    else {
      seen.set(value, line);
      rows.push({ line, token: value });
    }
  }
  return { ok: true, rows, invalid };
}

/** Groups chosen in the directory: their ids, checked like any id. */
export function readUserGroupIds(ids: string[]): RotateReading {
  if (ids.length > MAX_ROTATIONS) return { ok: false, message: tooMany };
  if (ids.length === 0) return { ok: false, message: 'Choose at least one group.' };
  const rows: RotateInput[] = [];
  const invalid: InvalidRow[] = [];
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    const checked = userGroupIdSchema.safeParse(id);
    if (!checked.success)
      invalid.push({
        line: index + 1,
        userGroupId: null,
        problems: [`user_group_id ${checked.error.issues[0]?.message}`],
      });
    else if (!seen.has(id)) {
      seen.add(id);
      rows.push({ line: index + 1, userGroupId: id });
    }
  });
  return { ok: true, rows, invalid };
}
