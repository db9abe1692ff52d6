/**
 * Creating a bulk job as a draft, from a read CSV: its good rows to run and its bad rows to show,
 * in one transaction. Nothing is sent until the job is started (lib/jobs/job-transitions.ts).
 */

import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { JobInput } from './contract';
import type { GetOrCreateRow, InvalidRow } from './csv';
import { inputDb } from './job-input';
import { chosenGroupStandings, pastedTokenStandings, type RowLookUp, standingProblem } from './row-standing';
import { type BulkJobRowTable, type JobKind, jobsDb } from './schema';
import type { RotateInput } from './token-list';
import { tokenPlace } from './token-place';
import type { TokenVault } from './vault';

export interface JobOwner {
  id: string;
  email: string;
}

const INSERT_CHUNK = 500;

type RowValues = Insertable<BulkJobRowTable>;

/** What every new job may say besides its rows. */
interface JobOrigin {
  /**
   * What it was made from (lib/jobs/job-input.ts): the routes always say; a job made without it
   * (a bench, a test on the jobs' tables alone) is of unknown origin.
   */
  input?: JobInput;
  /** Whose time its creation is stamped with; the process's unless given. */
  clock: Clock;
}

interface NewJob extends JobOrigin {
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
  const now = new Date(job.clock.now()).toISOString();
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
      // Its own column (lib/jobs/job-input.ts), written with the job when the caller says it.
      if (job.input)
        await inputDb(trx as unknown as ConsoleDb)
          .updateTable('bulk_job')
          .set({ input: job.input })
          .where('id', '=', id)
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
  job: JobOrigin & {
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

/** A pasted token, the group the console says it is (null: unknown to it), and its standing. */
export interface TokenLookUp extends RowLookUp {
  token: string;
}

/**
 * A draft rotation job. A pasted token is sealed at rest; its group is looked up by the token's
 * fingerprint, so that a rotation cut short by a crash can still be settled. Only a row whose token
 * is its group's current one is ready to run (lib/jobs/row-standing.ts): the others are rows with a
 * problem that names their standing, and an unknown token is sent only with `sendUnknown`.
 */
export async function createRotateJob(
  db: ConsoleDb,
  vault: TokenVault,
  job: JobOrigin & {
    environment: Environment;
    source: string;
    owner: JobOwner;
    rows: RotateInput[];
    invalid: InvalidRow[];
    sendUnknown?: boolean;
  },
  /**
   * Puts the look-up of pasted tokens on record (which group each one is, as the directory knows
   * it) before the draft that names them exists; when it throws, no draft is made.
   */
  recordLookUps: (jobId: string, lookUps: TokenLookUp[]) => Promise<void> = async () => undefined,
): Promise<string> {
  const tokens = await pastedTokenStandings(
    db,
    job.environment,
    job.rows.flatMap((row) => (row.token ? [tokenFingerprint(row.token) as string] : [])),
  );
  const chosen = await chosenGroupStandings(
    db,
    job.environment,
    job.rows.flatMap((row) => (!row.token && row.userGroupId ? [row.userGroupId] : [])),
  );
  /** The group a row is, and its standing, as the console knows them. */
  const lookUp = (row: RotateInput): RowLookUp =>
    row.token
      ? (tokens.get(tokenFingerprint(row.token) as string) as RowLookUp)
      : { userGroupId: row.userGroupId ?? null, standing: chosen.get(row.userGroupId ?? '') ?? 'unknown' };
  const ready: RotateInput[] = [];
  const refused: InvalidRow[] = [];
  for (const row of job.rows) {
    const { userGroupId, standing } = lookUp(row);
    if (standing === 'current' || (standing === 'unknown' && row.token && job.sendUnknown)) ready.push(row);
    else
      refused.push({
        line: row.line,
        userGroupId,
        problems: [standingProblem(standing, row.token ? 'token' : 'id')],
      });
  }
  // Sealed with the row's place, which names the job: its id is chosen before the rows are written.
  const id = randomUUID();
  await recordLookUps(
    id,
    job.rows.flatMap((row) => (row.token ? [{ token: row.token, ...lookUp(row) }] : [])),
  );
  return insertJob(db, {
    ...job,
    id,
    kind: 'rotate',
    invalid: [...refused, ...job.invalid].sort((a, b) => a.line - b.line),
    rows: ready.map((row, index) => ({
      source_line: row.line,
      user_group_id: row.token ? lookUp(row).userGroupId : (row.userGroupId ?? null),
      name: null,
      mapping: null,
      properties: null,
      input_token: row.token ? vault.seal(row.token, tokenPlace(id, index + 1, 'input')) : null,
      status: 'pending' as const,
      error: null,
    })),
  });
}
