/**
 * A batch of a job's row outcomes, in one transaction: the rows' records, what the directory learns
 * from them, and one audit entry each, a statement per kind of write rather than per row (on
 * SQLite, preparing and running a statement per row cost more than the rows' data). The batches
 * come from the outcome writer (outcome-writer.ts), which decides when to write.
 */
import { type Insertable, sql, type Transaction } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { AuditEntry } from '@/lib/audit/store';
import type { ConsoleDb } from '@/lib/db/console-database';
import { recordGroupsSeen } from '@/lib/directory/store';
import { jobRecord } from './on-record';
import type { BulkJobRowTable, BulkJobTable, JobTables } from './schema';
import type { Outcome, Row } from './send-row';
import { tokenPlace } from './token-place';
import type { TokenVault } from './vault';

/** What a worker was answered for a row, waiting to be written. */
export interface RowOutcome {
  row: Row;
  outcome: Outcome;
  inputToken: string | null;
}

export interface WriteOutcomesOptions {
  job: BulkJobTable;
  batch: RowOutcome[];
  vault: TokenVault;
  log: (level: 'error', fields: Record<string, unknown>, message: string) => void;
  /** When the batch's rows are finished. */
  now: Date;
}

/**
 * Answers whether the directory was written too; if not, the rows are marked for the catch-up
 * (directory-catch-up.ts), which the caller must tell once this transaction has committed.
 */
export async function writeOutcomes(
  trx: Transaction<JobTables>,
  { job, batch, vault, log, now }: WriteOutcomesOptions,
): Promise<boolean> {
  const environment = job.environment;
  const operator = { id: job.created_by_id, email: job.created_by };
  const at = now;
  // What the audit log and the directory stamp: the batch's own moment, as its rows carry.
  const batchClock = { now: () => at.getTime() };
  const finishedAt = at.toISOString();
  const done: Insertable<BulkJobRowTable>[] = [];
  const failed: Insertable<BulkJobRowTable>[] = [];
  const seen: GroupSeen[] = [];
  const audit: AuditEntry[] = [];
  for (const { row, outcome, inputToken } of batch) {
    const detail = `bulk job ${job.id.slice(0, 8)}, line ${row.source_line}`;
    const key = { job_id: job.id, row_number: row.row_number, source_line: row.source_line };
    if (outcome.kind === 'done') {
      const { group } = outcome;
      const record = {
        ...key,
        status: 'done' as const,
        user_group_id: group.provided_id,
        result_token: vault.seal(group.token, tokenPlace(job.id, row.row_number, 'result')),
        result_fingerprint: tokenFingerprint(group.token),
        result_name: group.name,
        result_team_id: group.team_id,
        result_properties: group.properties == null ? null : JSON.stringify(group.properties),
        new_user_group: outcome.isNew === null ? null : Number(outcome.isNew),
        error: outcome.note ?? null,
        finished_at: finishedAt,
        directory_at: finishedAt,
      };
      done.push(record);
      // From the record, as the catch-up reads it back: both tell the directory the same.
      seen.push(
        directoryChangeOf({
          environment,
          kind: job.kind,
          created_by: job.created_by,
          mapping: row.mapping,
          ...record,
        }),
      );
      const rotated = job.kind === 'rotate' && outcome.previousToken !== null;
      audit.push({
        action: rotated ? 'rotate' : 'get-or-create',
        operator,
        outcome: 'success',
        requestId: job.id,
        environment,
        userGroupId: group.provided_id,
        userGroupName: group.name,
        token: group.token,
        previousToken: outcome.previousToken,
        detail,
        at,
      });
    } else {
      failed.push({ ...key, status: 'failed', error: outcome.message, finished_at: finishedAt });
      audit.push({
        action: job.kind,
        operator,
        outcome: outcome.code,
        requestId: job.id,
        environment,
        userGroupId: row.user_group_id,
        previousToken: inputToken,
        detail,
        at,
      });
    }
  }
  await updateRows(trx, done, DONE_COLUMNS);
  await updateRows(trx, failed, ['status', 'error', 'finished_at']);
  await jobRecord(trx as unknown as ConsoleDb, job.id, log, batchClock).rows(audit);
  // The directory is a record of what happened, not where a token is kept: when it cannot be
  // written, the rows (a rotation's new token) still are, marked for the catch-up to retry.
  await sql`savepoint directory`.execute(trx);
  try {
    await recordGroupsSeen(trx as unknown as ConsoleDb, seen, batchClock);
    await sql`release savepoint directory`.execute(trx);
    return true;
  } catch (error) {
    // An error that ended the whole transaction (SQLite's full disk, say) leaves no savepoint
    // to roll back to: that error, not the rollback's, is the one to report.
    await sql`rollback to savepoint directory`.execute(trx).catch(() => {
      throw error;
    });
    await updateRows(
      trx,
      done.map((row) => ({ ...row, directory_at: null })),
      ['directory_at'],
    );
    log('error', { jobId: job.id, err: { name: (error as Error)?.name } }, 'could not update the directory');
    return false;
  }
}

type GroupSeen = Parameters<typeof recordGroupsSeen>[1][number];

/** A done row's record and its job: what the directory learns from it. */
export type DoneRow = Pick<BulkJobTable, 'environment' | 'kind' | 'created_by'> &
  Pick<
    BulkJobRowTable,
    | 'user_group_id'
    | 'mapping'
    | 'result_name'
    | 'result_team_id'
    | 'result_fingerprint'
    | 'result_properties'
    | 'new_user_group'
    | 'finished_at'
  >;

/**
 * A rotation job's row is a rotation unless its group had been deleted and get-or-create made it
 * anew (new_user_group 1). Properties are as the service answered: null records a group with none.
 */
export function directoryChangeOf(row: DoneRow): GroupSeen {
  const change = {
    environment: row.environment,
    operatorEmail: row.created_by,
    // A done row has all of these; the columns are nullable for the rows not yet done (unset `at`:
    // the directory stamps it with its clock).
    at: row.finished_at === null ? undefined : new Date(row.finished_at),
    group: {
      provided_id: row.user_group_id ?? '',
      name: row.result_name ?? '',
      team_id: row.result_team_id ?? 0,
      tokenFingerprint: row.result_fingerprint,
      properties: row.result_properties === null ? null : JSON.parse(row.result_properties),
    },
  };
  return row.kind === 'rotate' && row.new_user_group !== 1
    ? { kind: 'rotate', ...change }
    : {
        kind: 'get-or-create',
        ...change,
        isNew: row.new_user_group === 1,
        mappingSent: row.mapping === null ? undefined : JSON.parse(row.mapping),
      };
}

/** What a done row's record sets. */
const DONE_COLUMNS = [
  'status',
  'user_group_id',
  'result_token',
  'result_fingerprint',
  'result_name',
  'result_team_id',
  'result_properties',
  'new_user_group',
  'error',
  'finished_at',
  'directory_at',
] as const satisfies ReadonlyArray<keyof BulkJobRowTable>;

/**
 * Sets `columns` of rows that exist, many in one statement: an insert whose conflict on the row's
 * key updates those columns from the values given (SQL has no portable multi-row UPDATE; SQLite
 * and PostgreSQL both have this). Each value carries the row's key and its NOT NULL columns.
 */
async function updateRows(
  trx: Transaction<JobTables>,
  rows: Insertable<BulkJobRowTable>[],
  columns: ReadonlyArray<keyof BulkJobRowTable>,
): Promise<void> {
  // 14 values a row: well under either database's limit on a statement's parameters.
  const ROWS_PER_STATEMENT = 200;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT)
    await trx
      .insertInto('bulk_job_row')
      .values(rows.slice(start, start + ROWS_PER_STATEMENT))
      .onConflict((conflict) =>
        conflict
          .columns(['job_id', 'row_number'])
          .doUpdateSet((eb) =>
            Object.fromEntries(columns.map((column) => [column, eb.ref(`excluded.${column}`)])),
          ),
      )
      .execute();
}
