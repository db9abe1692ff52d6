/**
 * Handing a job's tokens out once: the claim that marks them taken, reads them and erases them.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { type ResultRow, resultRows } from './result-rows';
import { jobsDb } from './schema';
import type { TokenVault } from './vault';

/**
 * The tokens, to the one caller who took them; to every later one, when and by whom they were
 * taken; or, while a console still runs the job (rows it sent may yet answer), not yet.
 */
export type TokenClaim =
  | { rows: ResultRow[] }
  | { takenAt: string; takenBy: string | null }
  | { settling: true };

/**
 * Hands a job's tokens out once and erases them, in one transaction: the first caller marks them
 * taken with a conditional update (of concurrent callers exactly one matches, on SQLite and on
 * PostgreSQL, whose row lock makes the others re-read a row already taken), reads and decrypts
 * them, and erases them; a decryption failure rolls it all back. The results stay. Not while a
 * console holds the job's lease: a cancelled job's rows already sent may still be answered, and
 * their tokens must not arrive after the only copy was handed out.
 */
export async function claimResultTokens(
  db: ConsoleDb,
  id: string,
  vault: TokenVault,
  takenBy: string,
  clock: Clock,
): Promise<TokenClaim> {
  const now = new Date(clock.now()).toISOString();
  return jobsDb(db)
    .transaction()
    .execute(async (trx): Promise<TokenClaim> => {
      const claimed = await trx
        .updateTable('bulk_job')
        .set({ tokens_erased_at: now, tokens_taken_by: takenBy, updated_at: now })
        .where('id', '=', id)
        .where('tokens_erased_at', 'is', null)
        .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]))
        .returning('id')
        .executeTakeFirst();
      if (!claimed) {
        const job = await trx
          .selectFrom('bulk_job')
          .select(['tokens_erased_at', 'tokens_taken_by'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        if (!job.tokens_erased_at) return { settling: true };
        return { takenAt: job.tokens_erased_at, takenBy: job.tokens_taken_by };
      }
      const rows = await resultRows(trx, id, vault);
      await trx
        .updateTable('bulk_job_row')
        .set({ result_token: null, input_token: null })
        .where('job_id', '=', id)
        .execute();
      return { rows };
    });
}
