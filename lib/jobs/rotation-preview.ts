/**
 * What a draft rotation job will rotate, named: each row's group (its id and name as the directory
 * knows them) and the fingerprint of the token to be replaced, never the token. A pasted token's
 * group is the one the directory holds that fingerprint for (looked up when the job was made), or
 * none: "not known to the console". Framework-free, like the store.
 */

import { spreadsheetCsv } from '@/lib/audit/csv';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDb } from '@/lib/db/console-database';
import { directoryDb } from '@/lib/directory/schema';
import type { Environment } from '@/lib/environments';
import { jobsDb } from './schema';
import { tokenPlace } from './token-place';
import type { TokenVault } from './vault';

export interface RotationPreviewRow {
  line: number;
  /** null: the directory knows no group with this token. */
  userGroupId: string | null;
  name: string | null;
  tokenFingerprint: string | null;
}

export interface RotationPreview {
  /** The first rows, in the job's order. */
  rows: RotationPreviewRow[];
  /** Every row the job will run (the good ones). */
  total: number;
}

const LOOKUP_CHUNK = 500;

/** The first `limit` rows of a rotation job (all of them without a limit), named. */
export async function rotationPreview(
  db: ConsoleDb,
  vault: TokenVault,
  job: { id: string; environment: Environment },
  limit?: number,
): Promise<RotationPreview> {
  const jobs = jobsDb(db);
  let query = jobs
    .selectFrom('bulk_job_row')
    .select(['row_number', 'source_line', 'user_group_id', 'input_token'])
    .where('job_id', '=', job.id)
    .where('status', '!=', 'invalid')
    .orderBy('row_number');
  if (limit !== undefined) query = query.limit(limit);
  const [rows, counted] = await Promise.all([
    query.execute(),
    jobs
      .selectFrom('bulk_job_row')
      .select((eb) => eb.fn.countAll().as('rows'))
      .where('job_id', '=', job.id)
      .where('status', '!=', 'invalid')
      .executeTakeFirstOrThrow(),
  ]);
  const ids = [...new Set(rows.flatMap((row) => (row.user_group_id ? [row.user_group_id] : [])))];
  const known = new Map<string, { name: string | null; tokenFingerprint: string | null }>();
  for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
    const found = await directoryDb(db)
      .selectFrom('directory_entry')
      .select(['user_group_id', 'name', 'token_fingerprint'])
      .where('environment', '=', job.environment)
      .where('user_group_id', 'in', ids.slice(start, start + LOOKUP_CHUNK))
      .execute();
    for (const entry of found)
      known.set(entry.user_group_id, { name: entry.name, tokenFingerprint: entry.token_fingerprint });
  }
  return {
    total: Number(counted.rows),
    rows: rows.map((row) => {
      const entry = row.user_group_id ? known.get(row.user_group_id) : undefined;
      // A pasted token is fingerprinted from itself; a group chosen by id rotates the token the
      // directory last saw.
      const fingerprint = row.input_token
        ? tokenFingerprint(vault.open(row.input_token, tokenPlace(job.id, row.row_number, 'input')))
        : (entry?.tokenFingerprint ?? null);
      return {
        line: row.source_line,
        userGroupId: row.user_group_id,
        name: entry?.name ?? null,
        tokenFingerprint: fingerprint,
      };
    }),
  };
}

const NOT_KNOWN = 'not known to the console';

/** The whole preview as CSV (no token: fingerprints only), cells a spreadsheet opens safely. */
export function rotationPreviewToCsv(rows: readonly RotationPreviewRow[]): string {
  return spreadsheetCsv(
    ['line', 'user_group_id', 'name', 'token_fingerprint', 'note'],
    rows.map((row) => [
      row.line,
      row.userGroupId,
      row.name,
      row.tokenFingerprint,
      row.userGroupId ? null : NOT_KNOWN,
    ]),
  );
}
