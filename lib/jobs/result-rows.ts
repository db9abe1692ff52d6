/**
 * A job's result, row by row: what each row came to, and its token when the vault is given. Read
 * for the result file, and by the one-time token claim (lib/jobs/token-claim.ts).
 */
import type { ConsoleDb } from '@/lib/db/console-database';
import { type JobsDb, jobsDb, type RowStatus } from './schema';
import { tokenPlace } from './token-place';
import type { TokenVault } from './vault';

export interface ResultRow {
  line: number;
  userGroupId: string | null;
  name: string | null;
  teamId: number | null;
  newUserGroup: boolean | null;
  status: RowStatus;
  error: string | null;
  tokenFingerprint: string | null;
  token?: string | null;
}

/**
 * Every row of the job, in the file's order: those it ran with their outcome, and those the preview
 * refused (status `invalid`) with what is wrong, so the file accounts for every line sent; with
 * tokens, decrypted (null where none or already erased).
 */
export function jobResultRows(db: ConsoleDb, id: string, vault: TokenVault | null): Promise<ResultRow[]> {
  return resultRows(jobsDb(db), id, vault);
}

/** The same on the jobs' tables as given: the token claim reads them within its transaction. */
export async function resultRows(db: JobsDb, id: string, vault: TokenVault | null): Promise<ResultRow[]> {
  const rows = await db
    .selectFrom('bulk_job_row')
    .selectAll()
    .where('job_id', '=', id)
    .orderBy('source_line')
    .orderBy('row_number')
    .execute();
  return rows.map((row) => ({
    line: row.source_line,
    userGroupId: row.user_group_id,
    name: row.result_name ?? row.name,
    teamId: row.result_team_id,
    newUserGroup: row.new_user_group === null ? null : row.new_user_group === 1,
    status: row.status,
    error: row.error,
    tokenFingerprint: row.result_fingerprint,
    ...(vault
      ? {
          token: row.result_token
            ? vault.open(row.result_token, tokenPlace(id, row.row_number, 'result'))
            : null,
        }
      : {}),
  }));
}
