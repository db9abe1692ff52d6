/**
 * Creating, reading and steering bulk jobs, on the console database. Framework-free: the console's
 * routes, the runner (lib/jobs/runner.ts), the bench and the tests use it alike.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { type JobAction, jobTransitions } from '@/lib/jobs/contract';
import type { GetOrCreateRow, InvalidRow } from './csv';
import {
  type BulkJobRowTable,
  type BulkJobTable,
  type JobKind,
  type JobsDb,
  jobsDb,
  type RowStatus,
} from './schema';
import type { RotateInput } from './token-list';
import type { TokenVault } from './vault';

export interface JobOwner {
  id: string;
  email: string;
}

/** Where a row's secrets are sealed: the row itself, so a ciphertext cannot be moved. */
export const tokenPlace = (jobId: string, rowNumber: number, what: 'input' | 'result') =>
  `${jobId}/${rowNumber}/${what}`;

const INSERT_CHUNK = 500;

type RowValues = Insertable<BulkJobRowTable>;

interface NewJob {
  /** Chosen by the caller when a row's values depend on it (sealed tokens name their row). */
  id?: string;
  environment: Environment;
  kind: JobKind;
  source: string;
  owner: JobOwner;
  rows: Omit<RowValues, 'job_id' | 'row_number'>[];
  invalid: InvalidRow[];
}

async function insertJob(db: ConsoleDb, job: NewJob): Promise<string> {
  const id = job.id ?? randomUUID();
  const now = new Date().toISOString();
  const rows: RowValues[] = [
    ...job.rows.map((row, index) => ({ ...row, job_id: id, row_number: index + 1 })),
    ...job.invalid.map((row, index) => ({
      job_id: id,
      row_number: job.rows.length + index + 1,
      source_line: row.line,
      user_group_id: row.userGroupId,
      name: null,
      mapping: null,
      properties: null,
      input_token: null,
      status: 'invalid' as const,
      error: row.problems.join('; '),
    })),
  ];
  await jobsDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('bulk_job')
        .values({
          id,
          environment: job.environment,
          kind: job.kind,
          status: 'draft',
          source: job.source,
          created_at: now,
          created_by: job.owner.email,
          created_by_id: job.owner.id,
          updated_at: now,
          started_at: null,
          finished_at: null,
          paused_reason: null,
          audit_event_id: null,
          tokens_erased_at: null,
          tokens_taken_by: null,
          lease_owner: null,
          lease_expires_at: null,
        })
        .execute();
      for (let start = 0; start < rows.length; start += INSERT_CHUNK)
        await trx
          .insertInto('bulk_job_row')
          .values(rows.slice(start, start + INSERT_CHUNK))
          .execute();
    });
  return id;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** A draft job from a read CSV: its good rows to run, its bad rows to show. Nothing is sent yet. */
export function createGetOrCreateJob(
  db: ConsoleDb,
  job: {
    environment: Environment;
    source: string;
    owner: JobOwner;
    rows: GetOrCreateRow[];
    invalid: InvalidRow[];
  },
): Promise<string> {
  return insertJob(db, {
    ...job,
    kind: 'get-or-create',
    rows: job.rows.map((row) => ({
      source_line: row.line,
      user_group_id: row.user_group_id,
      name: row.name ?? null,
      mapping: json(row.mapping),
      properties: json(row.properties),
      input_token: null,
      status: 'pending' as const,
      error: null,
    })),
  });
}

/**
 * A draft rotation job. A pasted token is sealed at rest; its group is looked up in the directory
 * by the token's fingerprint, so that a rotation cut short by a crash can still be settled.
 */
/** A pasted token, and the group the directory says it is (null: unknown to the console). */
export interface TokenLookUp {
  token: string;
  userGroupId: string | null;
}

export async function createRotateJob(
  db: ConsoleDb,
  vault: TokenVault,
  job: {
    environment: Environment;
    source: string;
    owner: JobOwner;
    rows: RotateInput[];
    invalid: InvalidRow[];
  },
  /**
   * Puts the look-up of pasted tokens on record (which group each one is, as the directory knows
   * it) before the draft that names them exists; when it throws, no draft is made.
   */
  recordLookUps: (jobId: string, lookUps: TokenLookUp[]) => Promise<void> = async () => undefined,
): Promise<string> {
  const fingerprints = job.rows.flatMap((row) => (row.token ? [tokenFingerprint(row.token) as string] : []));
  const known = new Map<string, string>();
  for (let start = 0; start < fingerprints.length; start += INSERT_CHUNK) {
    const found = await db
      .selectFrom('directory_entry')
      .select(['token_fingerprint', 'user_group_id'])
      .where('environment', '=', job.environment)
      .where('token_fingerprint', 'in', fingerprints.slice(start, start + INSERT_CHUNK))
      .execute();
    for (const row of found) if (row.token_fingerprint) known.set(row.token_fingerprint, row.user_group_id);
  }
  /** The group a pasted token is, as the directory knows it. */
  const groupOf = (token: string) => known.get(tokenFingerprint(token) as string) ?? null;
  // Sealed with the row's place, which names the job: its id is chosen before the rows are written.
  const id = randomUUID();
  await recordLookUps(
    id,
    job.rows.flatMap((row) => (row.token ? [{ token: row.token, userGroupId: groupOf(row.token) }] : [])),
  );
  return insertJob(db, {
    ...job,
    id,
    kind: 'rotate',
    rows: job.rows.map((row, index) => ({
      source_line: row.line,
      user_group_id: row.userGroupId ?? (row.token ? groupOf(row.token) : null),
      name: null,
      mapping: null,
      properties: null,
      input_token: row.token ? vault.seal(row.token, tokenPlace(id, index + 1, 'input')) : null,
      status: 'pending' as const,
      error: null,
    })),
  });
}

interface JobCounts {
  /** Rows the job runs (the good ones). */
  total: number;
  invalid: number;
  pending: number;
  sending: number;
  done: number;
  failed: number;
}

export interface JobProgress {
  job: BulkJobTable;
  counts: JobCounts;
  /** Rows settled in the last minute; null before any. */
  ratePerMinute: number | null;
  secondsLeft: number | null;
  invalidRows: { line: number; userGroupId: string | null; problems: string }[];
  failedRows: { line: number; userGroupId: string | null; error: string }[];
}

const LISTED_ROWS = 200;

export async function jobProgress(db: ConsoleDb, id: string, now = new Date()): Promise<JobProgress | null> {
  const jobs = jobsDb(db);
  const job = await jobs.selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirst();
  if (!job) return null;
  const byStatus = await jobs
    .selectFrom('bulk_job_row')
    .select(['status', (eb) => eb.fn.countAll<number>().as('rows')])
    .where('job_id', '=', id)
    .groupBy('status')
    .execute();
  const count = (status: RowStatus) => Number(byStatus.find((row) => row.status === status)?.rows ?? 0);
  const counts: JobCounts = {
    invalid: count('invalid'),
    pending: count('pending'),
    sending: count('sending'),
    done: count('done'),
    failed: count('failed'),
    total: 0,
  };
  counts.total = counts.pending + counts.sending + counts.done + counts.failed;
  const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
  const recent = await jobs
    .selectFrom('bulk_job_row')
    .select([(eb) => eb.fn.countAll<number>().as('rows'), (eb) => eb.fn.min('finished_at').as('first')])
    .where('job_id', '=', id)
    .where('finished_at', '>=', minuteAgo)
    .executeTakeFirstOrThrow();
  const settled = Number(recent.rows);
  // Over the last minute, or since the first row of it settled when the job is younger.
  const seconds = recent.first ? Math.max(1, (now.getTime() - Date.parse(String(recent.first))) / 1000) : 0;
  const ratePerMinute =
    settled > 0 && job.status === 'running' ? Math.round((settled / Math.max(seconds, 1)) * 60) : null;
  const remaining = counts.pending + counts.sending;
  const secondsLeft = ratePerMinute ? Math.ceil((remaining / ratePerMinute) * 60) : null;
  const listed = (status: 'invalid' | 'failed') =>
    jobs
      .selectFrom('bulk_job_row')
      .select(['source_line', 'user_group_id', 'error'])
      .where('job_id', '=', id)
      .where('status', '=', status)
      .orderBy('row_number')
      .limit(LISTED_ROWS)
      .execute();
  const [invalid, failed] = await Promise.all([listed('invalid'), listed('failed')]);
  return {
    job,
    counts,
    ratePerMinute,
    secondsLeft,
    invalidRows: invalid.map((row) => ({
      line: row.source_line,
      userGroupId: row.user_group_id,
      problems: row.error ?? '',
    })),
    failedRows: failed.map((row) => ({
      line: row.source_line,
      userGroupId: row.user_group_id,
      error: row.error ?? '',
    })),
  };
}

export async function listJobs(db: ConsoleDb, environment: Environment, limit = 50): Promise<BulkJobTable[]> {
  return jobsDb(db)
    .selectFrom('bulk_job')
    .selectAll()
    .where('environment', '=', environment)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Applies an action if the job's status allows it; answers the job after, or null when refused. */
export async function steerJob(
  db: ConsoleDb,
  id: string,
  action: JobAction,
  extra: Partial<Pick<BulkJobTable, 'audit_event_id'>> = {},
): Promise<BulkJobTable | null> {
  const now = new Date().toISOString();
  const { to, from } = jobTransitions[action];
  const result = await jobsDb(db)
    .updateTable('bulk_job')
    .set({
      status: to,
      updated_at: now,
      paused_reason: null,
      ...(action === 'start' ? { started_at: now } : {}),
      ...(action === 'cancel' ? { finished_at: now } : {}),
      ...extra,
    })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  if (action === 'cancel') await eraseInputTokens(db, id);
  return (
    (await jobsDb(db).selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
  );
}

/** Tokens to rotate are not needed once a job can run no more: erased. */
export async function eraseInputTokens(db: ConsoleDb, id: string): Promise<void> {
  await jobsDb(db).updateTable('bulk_job_row').set({ input_token: null }).where('job_id', '=', id).execute();
}

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

async function resultRows(db: JobsDb, id: string, vault: TokenVault | null): Promise<ResultRow[]> {
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
): Promise<TokenClaim> {
  const now = new Date().toISOString();
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
