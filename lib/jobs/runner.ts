/**
 * Runs bulk jobs on the server: rows of running jobs are sent to the User Group Service with
 * bounded concurrency at the environment's pace; 429 and transient failures are retried (honouring
 * Retry-After); each answer is recorded (row, directory, audit entry, in one transaction) before
 * that worker sends its next request, so a token that arrived is never lost.
 *
 * One instance runs a job at a time: it holds a lease in the database and renews it; a job whose
 * lease ran out (its console died) is taken over. A row a dead console left `sending` may or may
 * not have reached the service: a get-or-create is simply sent again (it returns the group as it
 * is); a rotation is settled by reading the group's current token, never by rotating twice.
 */
import { randomUUID } from 'node:crypto';
import { type Insertable, type Selectable, type SqlBool, sql, type Transaction } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { type AuditEntry, recordAuditEvents, settleAuditEvent } from '@/lib/audit/store';
import type { ConsoleDb } from '@/lib/db/console-database';
import { recordGroupsSeen, type ServiceGroup } from '@/lib/directory/store';
import type { Environment } from '@/lib/environments';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import { createOutcomeWriter, type OutcomeWriter } from './outcome-writer';
import { createPacer, type Pacer, type SharedSchedule } from './pacer';
import { type BulkJobRowTable, type BulkJobTable, type JobTables, jobsDb } from './schema';
import { eraseInputTokens, tokenPlace } from './store';
import type { TokenVault } from './vault';

export interface JobRunnerOptions {
  db: ConsoleDb;
  vault: TokenVault;
  /** The environment's client; throws (with a message for the person) when it has none. */
  api: (environment: Environment) => UserGroupApi;
  /** Requests per minute in an environment; null: unlimited. */
  pace: (environment: Environment) => number | null;
  /** Where the paces' slots are taken: with Redis, one schedule per environment for every instance. */
  paceSlots?: SharedSchedule['slots'];
  /** Requests in flight per job. */
  concurrency: number;
  log: (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void;
  /** For tests: how long a lease lasts and how often running jobs are looked for. */
  leaseMs?: number;
  pollMs?: number;
}

export interface JobRunner {
  /** Looks for running jobs now and every poll interval. */
  start(): void;
  /** Looks now (after a person started or resumed a job). */
  wake(): void;
  /** Stops taking rows and waits for those in flight. */
  stop(): Promise<void>;
}

const MAX_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 30_000;

type Row = Selectable<BulkJobRowTable>;
/** What a worker was answered for a row, waiting to be written. */
interface RowOutcome {
  row: Row;
  outcome: Outcome;
  inputToken: string | null;
}
type Outcome =
  | { kind: 'done'; group: ServiceGroup; isNew: boolean | null; previousToken: string | null; note?: string }
  | { kind: 'failed'; message: string; code: string };

/** Thrown to stop a job: the key was refused or the environment has none. The job is paused. */
class JobHalt extends Error {}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, vault, log } = options;
  const jobs = jobsDb(db);
  const owner = randomUUID();
  const leaseMs = options.leaseMs ?? 10_000;
  const pollMs = options.pollMs ?? 2_000;
  const pacers = new Map<Environment, Pacer>();
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let catchingUp: Promise<void> | undefined;
  /** Done rows may lack their directory entry (see catchUpDirectory): true until looked for. */
  let directoryBehind = true;
  let stopped = false;

  const pacerOf = (environment: Environment) => {
    let pacer = pacers.get(environment);
    if (!pacer) {
      const slots = options.paceSlots;
      pacer = createPacer(options.pace(environment), slots && { slots, name: environment });
      pacers.set(environment, pacer);
    }
    return pacer;
  };

  const leaseFree = (now: string) =>
    sql<SqlBool>`(lease_owner is null or lease_owner = ${owner} or lease_expires_at < ${now})`;

  async function claim(id: string): Promise<boolean> {
    const now = new Date();
    const result = await jobs
      .updateTable('bulk_job')
      .set({ lease_owner: owner, lease_expires_at: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where(leaseFree(now.toISOString()))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function poll(): Promise<void> {
    if (stopped) return;
    catchingUp ??= catchUpDirectory()
      .catch((error: unknown) =>
        log(
          'error',
          { err: { name: (error as Error)?.name } },
          'could not update the directory from bulk jobs',
        ),
      )
      .finally(() => {
        catchingUp = undefined;
      });
    const candidates = await jobs
      .selectFrom('bulk_job')
      .select('id')
      .where('status', '=', 'running')
      .where(leaseFree(new Date().toISOString()))
      .execute();
    for (const { id } of candidates) {
      if (running.has(id) || stopped || !(await claim(id))) continue;
      const run = runJob(id)
        .catch((error: unknown) =>
          log('error', { jobId: id, err: { name: (error as Error)?.name } }, 'bulk job stopped by an error'),
        )
        .finally(() => running.delete(id));
      running.set(id, run);
    }
  }

  function safePoll() {
    poll().catch((error: unknown) =>
      log('error', { err: { name: (error as Error)?.name } }, 'could not look for bulk jobs'),
    );
  }

  async function runJob(id: string): Promise<void> {
    const job = await jobs.selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const environment = job.environment;
    let holding = true;
    // Renewed while it runs; lost (another instance took over, or a person stopped the job): stop.
    const renew = setInterval(
      () => {
        jobs
          .updateTable('bulk_job')
          .set({ lease_expires_at: new Date(Date.now() + leaseMs).toISOString() })
          .where('id', '=', id)
          .where('lease_owner', '=', owner)
          .executeTakeFirst()
          .then((result) => {
            if (Number(result.numUpdatedRows) === 0) holding = false;
          })
          .catch(() => {
            holding = false;
          });
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    let checkedAt = 0;
    let stillRunning = true;
    const mayContinue = async () => {
      if (stopped || !holding) return false;
      if (performance.now() - checkedAt > 250) {
        checkedAt = performance.now();
        const now = await jobs
          .selectFrom('bulk_job')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirst();
        stillRunning = now?.status === 'running';
      }
      return stillRunning;
    };
    const writer = createOutcomeWriter<RowOutcome>({
      write: async (batch) => {
        const directoryWritten = await jobs.transaction().execute((trx) => writeOutcomes(trx, job, batch));
        // Only once committed: a catch-up that looked earlier would not have seen these rows.
        if (!directoryWritten) directoryBehind = true;
      },
    });
    try {
      log('info', { jobId: id, environment, kind: job.kind }, 'bulk job running');
      const rows = await jobs
        .selectFrom('bulk_job_row')
        .selectAll()
        .where('job_id', '=', id)
        .where('status', 'in', ['pending', 'sending'])
        .orderBy('row_number')
        .execute();
      let next = 0;
      let halt: JobHalt | null = null;
      // Rows are marked `sending` a handful at a time, ahead of the workers that take them: one
      // write per handful instead of one per row. A row so marked may have been sent; after a
      // crash that is all a `sending` row means, and what the recovery assumes.
      const claim = createClaimer(job.id, rows, Math.max(1, options.concurrency));
      const worker = async () => {
        try {
          // The bound is checked after the await: other workers take rows meanwhile.
          while (!halt && (await mayContinue()) && next < rows.length) {
            if (writer.failure() !== undefined) throw writer.failure();
            const index = next++;
            await claim.through(index);
            await runRow(job, rows[index] as Row, mayContinue, writer);
          }
        } catch (error) {
          if (!(error instanceof JobHalt)) throw error;
          halt ??= error;
        }
      };
      // Every worker settles (its row back to pending) before the job is paused or finished.
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
      await writer.flush();
      // Claimed but never taken (the job was paused or stopped): not sent, so not uncertain.
      await claim.release(next);
      if (halt) await pause(id, (halt as JobHalt).message);
      else if (holding && !stopped) await finishIfDone(job);
    } finally {
      // A worker failed: what the others were answered is still worth keeping.
      await writer.flush().catch(() => undefined);
      clearInterval(renew);
      await jobs
        .updateTable('bulk_job')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute()
        .catch(() => undefined);
    }
  }

  function createClaimer(jobId: string, rows: Row[], size: number) {
    let claimedUpTo = 0;
    let claiming: Promise<void> | null = null;
    const mark = async (from: number, to: number) => {
      await jobs
        .updateTable('bulk_job_row')
        .set({ status: 'sending', attempts: sql`attempts + 1` })
        .where('job_id', '=', jobId)
        .where(
          'row_number',
          'in',
          rows.slice(from, to).map((row) => row.row_number),
        )
        .execute();
      claimedUpTo = to;
    };
    return {
      async through(index: number): Promise<void> {
        while (index >= claimedUpTo) {
          claiming ??= mark(claimedUpTo, Math.min(rows.length, claimedUpTo + size)).finally(() => {
            claiming = null;
          });
          await claiming;
        }
      },
      async release(from: number): Promise<void> {
        const unsent = rows.slice(from, claimedUpTo).filter((row) => row.status === 'pending');
        if (unsent.length === 0) return;
        await jobs
          .updateTable('bulk_job_row')
          .set({ status: 'pending' })
          .where('job_id', '=', jobId)
          .where(
            'row_number',
            'in',
            unsent.map((row) => row.row_number),
          )
          .execute();
      },
    };
  }

  async function runRow(
    job: BulkJobTable,
    row: Row,
    mayContinue: () => Promise<boolean>,
    writer: OutcomeWriter<RowOutcome>,
  ): Promise<void> {
    const environment = job.environment;
    const uncertain = row.status === 'sending';
    const inputToken = row.input_token
      ? vault.open(row.input_token, tokenPlace(job.id, row.row_number, 'input'))
      : null;
    for (let attempt = 1; ; attempt++) {
      let outcome: Outcome;
      try {
        const api = callable(environment);
        outcome =
          job.kind === 'get-or-create'
            ? await getOrCreate(api, environment, row, uncertain)
            : await rotate(api, environment, row, inputToken, uncertain || attempt > 1);
      } catch (caught) {
        const error =
          caught instanceof UpstreamError && caught.kind === 'unauthorized'
            ? new JobHalt(
                'The User Group Service refused this environment’s API key: the job is paused. Fix the key and resume it.',
              )
            : caught;
        if (error instanceof JobHalt) {
          await setRowStatus(row, 'pending');
          throw error;
        }
        const retryIn = retryDelay(error, attempt);
        if (retryIn !== null && attempt < MAX_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, retryIn));
          if (await mayContinue()) continue;
          // Paused or cancelled while waiting: the row has not been settled, it runs again on resume.
          await setRowStatus(row, uncertain || job.kind === 'rotate' ? 'sending' : 'pending');
          return;
        }
        outcome = { kind: 'failed', ...describeFailure(error) };
      }
      // A rotation's new token exists nowhere else until it is stored: its worker waits for that.
      await writer.add({ row, outcome, inputToken }, job.kind === 'rotate');
      return;
    }
  }

  function callable(environment: Environment): UserGroupApi {
    try {
      return options.api(environment);
    } catch (error) {
      throw new JobHalt(
        error instanceof Error ? error.message : `The ${environment} environment is not configured.`,
      );
    }
  }

  /** `uncertain`: sent before, by a console that died before it stored the answer. */
  async function getOrCreate(
    api: UserGroupApi,
    environment: Environment,
    row: Row,
    uncertain: boolean,
  ): Promise<Outcome> {
    await pacerOf(environment).wait();
    const answer = await api.getOrCreate({
      user_group_id: row.user_group_id as string,
      ...(row.name !== null ? { name: row.name } : {}),
      ...(row.mapping !== null ? { mapping: JSON.parse(row.mapping) } : {}),
      ...(row.properties !== null ? { properties: JSON.parse(row.properties) } : {}),
    });
    return {
      kind: 'done',
      group: answer.user_group,
      isNew: answer.new_user_group,
      previousToken: null,
      ...(uncertain && !answer.new_user_group
        ? { note: 'Sent again after the console was interrupted: this job may be what created it.' }
        : {}),
    };
  }

  /**
   * A rotation. `maybeDone`: an earlier attempt may have rotated already (it timed out, failed with
   * 5xx, or its console died): when the group is known, its current token tells.
   */
  async function rotate(
    api: UserGroupApi,
    environment: Environment,
    row: Row,
    inputToken: string | null,
    maybeDone: boolean,
  ): Promise<Outcome> {
    let token = inputToken;
    if (row.user_group_id && (token === null || maybeDone)) {
      await pacerOf(environment).wait();
      const current = await api.getOrCreate({ user_group_id: row.user_group_id });
      if (current.new_user_group) {
        return {
          kind: 'done',
          group: current.user_group,
          isNew: true,
          previousToken: null,
          note: 'It had been deleted elsewhere: get-or-create created it anew (new token); not rotated.',
        };
      }
      if (token !== null && tokenFingerprint(current.user_group.token) !== tokenFingerprint(token)) {
        return {
          kind: 'done',
          group: current.user_group,
          isNew: false,
          previousToken: token,
          note: 'Rotated before the console was interrupted; its new token was read back.',
        };
      }
      token = current.user_group.token;
    }
    if (token === null)
      return { kind: 'failed', code: 'not_found', message: 'No token and no id to rotate.' };
    await pacerOf(environment).wait();
    try {
      const answer = await api.rotate({ current_token: token });
      return { kind: 'done', group: answer.user_group, isNew: null, previousToken: token };
    } catch (error) {
      if (maybeDone && !row.user_group_id && error instanceof UpstreamError && error.kind === 'not_found') {
        return {
          kind: 'failed',
          code: 'uncertain',
          message:
            'The console was interrupted during this rotation and the token is no longer valid: it was probably rotated, but its new token was not received. Get the group’s current token from its page.',
        };
      }
      throw error;
    }
  }

  /**
   * A batch of a job's outcomes, in one transaction: the rows' records, what the directory learns
   * from them, and one audit entry each, a statement per kind of write rather than per row (on
   * SQLite, preparing and running a statement per row cost more than the rows' data). Answers
   * whether the directory was written too (if not, the rows are marked for the catch-up).
   */
  async function writeOutcomes(
    trx: Transaction<JobTables>,
    job: BulkJobTable,
    batch: RowOutcome[],
  ): Promise<boolean> {
    const environment = job.environment;
    const operator = { id: job.created_by_id, email: job.created_by };
    const at = new Date();
    const finishedAt = at.toISOString();
    const done: Insertable<BulkJobRowTable>[] = [];
    const failed: Insertable<BulkJobRowTable>[] = [];
    const seen: Parameters<typeof recordGroupsSeen>[1][number][] = [];
    const audit: AuditEntry[] = [];
    for (const { row, outcome, inputToken } of batch) {
      const detail = `bulk job ${job.id.slice(0, 8)}, line ${row.source_line}`;
      const key = { job_id: job.id, row_number: row.row_number, source_line: row.source_line };
      if (outcome.kind === 'done') {
        const { group } = outcome;
        done.push({
          ...key,
          status: 'done',
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
        });
        const rotated = job.kind === 'rotate' && outcome.previousToken !== null;
        const change = { environment, operatorEmail: job.created_by, at, group };
        seen.push(
          rotated
            ? { kind: 'rotate', ...change }
            : {
                kind: 'get-or-create',
                ...change,
                isNew: outcome.isNew === true,
                mappingSent: row.mapping === null ? undefined : JSON.parse(row.mapping),
              },
        );
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
    await recordAuditEvents(trx as unknown as ConsoleDb, audit);
    // The directory is a record of what happened, not where a token is kept: when it cannot be
    // written, the rows (a rotation's new token) still are, marked for the catch-up to retry.
    await sql`savepoint directory`.execute(trx);
    try {
      await recordGroupsSeen(trx as unknown as ConsoleDb, seen);
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
      log(
        'error',
        { jobId: job.id, err: { name: (error as Error)?.name } },
        'could not update the directory',
      );
      return false;
    }
  }

  /**
   * Done rows the directory has not learnt: their directory write failed (see writeOutcomes), or
   * an earlier version of the console, which told the directory a moment after each row's record,
   * died in between. Looked for when the runner starts and after such a failure, at the next poll.
   */
  async function catchUpDirectory(): Promise<void> {
    if (!directoryBehind) return;
    directoryBehind = false;
    try {
      let more = true;
      while (more && !stopped) more = await catchUpDirectoryBatch();
      // Cut short by stop(): still due when the runner starts again.
      if (more) directoryBehind = true;
    } catch (error) {
      directoryBehind = true;
      throw error;
    }
  }

  const SYNC_BATCH = 500;

  /** Answers whether there may be more. */
  async function catchUpDirectoryBatch(): Promise<boolean> {
    const rows = await jobs
      .selectFrom('bulk_job_row')
      .innerJoin('bulk_job', 'bulk_job.id', 'bulk_job_row.job_id')
      .select([
        'bulk_job_row.job_id',
        'bulk_job_row.row_number',
        'bulk_job_row.user_group_id',
        'bulk_job_row.mapping',
        'bulk_job_row.result_name',
        'bulk_job_row.result_team_id',
        'bulk_job_row.result_fingerprint',
        'bulk_job_row.result_properties',
        'bulk_job_row.new_user_group',
        'bulk_job_row.finished_at',
        'bulk_job.environment',
        'bulk_job.kind',
        'bulk_job.created_by',
      ])
      .where('bulk_job_row.status', '=', 'done')
      .where('bulk_job_row.directory_at', 'is', null)
      .orderBy('bulk_job_row.job_id')
      .orderBy('bulk_job_row.row_number')
      .limit(SYNC_BATCH)
      .execute();
    if (rows.length === 0) return false;
    const now = new Date().toISOString();
    await jobs.transaction().execute(async (trx) => {
      await recordGroupsSeen(
        trx as unknown as ConsoleDb,
        rows.map((row) => {
          const change = {
            environment: row.environment,
            operatorEmail: row.created_by,
            at: new Date(row.finished_at ?? now),
            group: {
              provided_id: row.user_group_id as string,
              name: row.result_name ?? '',
              team_id: row.result_team_id ?? 0,
              tokenFingerprint: row.result_fingerprint,
              // Stored as the service answered; null: it answered none, as the interactive route records.
              properties: row.result_properties === null ? null : JSON.parse(row.result_properties),
            },
          };
          return row.kind === 'rotate' && row.new_user_group !== 1
            ? { kind: 'rotate' as const, ...change }
            : {
                kind: 'get-or-create' as const,
                ...change,
                isNew: row.new_user_group === 1,
                mappingSent: row.mapping === null ? undefined : JSON.parse(row.mapping),
              };
        }),
      );
      for (const jobId of new Set(rows.map((row) => row.job_id)))
        await trx
          .updateTable('bulk_job_row')
          .set({ directory_at: now })
          .where('job_id', '=', jobId)
          .where(
            'row_number',
            'in',
            rows.filter((row) => row.job_id === jobId).map((row) => row.row_number),
          )
          .execute();
    });
    return rows.length === SYNC_BATCH;
  }

  async function pause(id: string, reason: string): Promise<void> {
    await jobs
      .updateTable('bulk_job')
      .set({ status: 'paused', paused_reason: reason, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
    log('warn', { jobId: id }, 'bulk job paused: the service refused the key or the environment has none');
  }

  async function setRowStatus(row: Row, status: 'pending' | 'sending'): Promise<void> {
    await jobs
      .updateTable('bulk_job_row')
      .set({ status })
      .where('job_id', '=', row.job_id)
      .where('row_number', '=', row.row_number)
      .execute();
  }

  async function finishIfDone(job: BulkJobTable): Promise<void> {
    const left = await jobs
      .selectFrom('bulk_job_row')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .where('job_id', '=', job.id)
      .where('status', 'in', ['pending', 'sending'])
      .executeTakeFirstOrThrow();
    if (Number(left.rows) > 0) return;
    const now = new Date().toISOString();
    const finished = await jobs
      .updateTable('bulk_job')
      .set({ status: 'finished', finished_at: now, updated_at: now })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(finished.numUpdatedRows) === 0) return;
    await eraseInputTokens(db, job.id);
    const failed = await jobs
      .selectFrom('bulk_job_row')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .where('job_id', '=', job.id)
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow();
    if (job.audit_event_id !== null)
      await settleAuditEvent(db, job.audit_event_id, {
        outcome: Number(failed.rows) === 0 ? 'success' : 'failed_rows',
      });
    log('info', { jobId: job.id, failed: Number(failed.rows) }, 'bulk job finished');
  }

  return {
    start() {
      stopped = false;
      timer ??= setInterval(safePoll, pollMs);
      timer.unref?.();
      safePoll();
    },
    wake: safePoll,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled(running.values());
      await catchingUp;
    },
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

/** Milliseconds to wait before trying again, or null when trying again cannot help. */
function retryDelay(error: unknown, attempt: number): number | null {
  if (!(error instanceof UpstreamError)) return null;
  const backoff = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
  switch (error.kind) {
    case 'rate_limited':
      return error.details.retryAfterSeconds !== undefined ? error.details.retryAfterSeconds * 1000 : backoff;
    case 'timeout':
    case 'unreachable':
      return backoff;
    case 'failed':
      return (error.details.status ?? 500) >= 500 ? backoff : null;
    default:
      return null;
  }
}

function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof UpstreamError) {
    const code = error.kind === 'not_found' ? 'not_found' : `upstream_${error.kind}`;
    const message =
      error.kind === 'not_found'
        ? 'No user group holds this token: it was rotated or the group deleted.'
        : error.kind === 'rate_limited'
          ? 'Still rate limited after several tries.'
          : error.message;
    return { code, message };
  }
  return { code: 'internal', message: 'The console failed on this row.' };
}
