import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { directoryMatchingIds } from '@/lib/directory/matching-ids';
import type { Environment } from '@/lib/environments';
import type { CreateGetOrCreateJob, CreateRotateJob, JobInput, JobView } from '@/lib/jobs/contract';
import { readGetOrCreateCsv } from '@/lib/jobs/csv';
import { createGetOrCreateJob, createRotateJob } from '@/lib/jobs/drafts';
import { jobInputOf, jobReadRefusal } from '@/lib/jobs/job-input';
import { describePauseReason } from '@/lib/jobs/pause-reasons';
import type { RowStanding } from '@/lib/jobs/row-standing';
import type { BulkJobTable, JobKind } from '@/lib/jobs/schema';
import { type JobProgress, jobProgress } from '@/lib/jobs/store';
import { MAX_ROTATIONS, readTokenList, readUserGroupIds } from '@/lib/jobs/token-list';
import { can, hasRole, type Permission, permissionWords, type Role } from '@/lib/roles';
import type { ConsoleServer, Operator } from '@/lib/server';
import { accessErrors } from '@/lib/server/errors';
import { writeMany } from '@/lib/server/frame/writer';
import type { AuditFacts } from '@/lib/server/route';
import { spendLookUps } from '@/lib/tokens/look-up-limits';

/** What running or steering a job of this kind needs: the single action's permission. */
export const jobPermission: Record<JobKind, Permission> = {
  'get-or-create': 'user-groups:get-or-create',
  rotate: 'user-groups:rotate',
};

export function requireJobPermission(role: Role | null, kind: JobKind): void {
  const permission = jobPermission[kind];
  if (!can(role, permission)) throw accessErrors.forbidden(permissionWords[permission]);
}

/**
 * Who may take a job's tokens (and so erase the console's only copy): the operator who made the job,
 * or an admin. Answers why not, in words naming the owner, or null when allowed.
 */
export function tokenDownloadRefusal(
  operator: Pick<Operator, 'id' | 'role'>,
  job: Pick<BulkJobTable, 'created_by' | 'created_by_id'>,
): string | null {
  if (!can(operator.role, 'user-groups:reveal-token')) return 'Your role cannot download tokens.';
  if (job.created_by_id === operator.id || hasRole(operator.role, 'admin')) return null;
  return `Only ${job.created_by}, who made this job, or an admin can download its tokens.`;
}

/** A job, its progress as of the server's clock, and what it was made from. */
export type LoadedJob = JobProgress & { input: JobInput | null };

/** The job and its progress, or null when there is none. */
export async function readJob(server: Pick<ConsoleServer, 'database' | 'clock'>, id: string) {
  const { db } = server.database;
  const [progress, input] = await Promise.all([
    jobProgress(db, id, new Date(server.clock.now())),
    jobInputOf(db, id),
  ]);
  return progress ? { ...progress, input } : null;
}

/** The job and its progress, or 404. */
export async function loadJob(server: ConsoleServer, id: string): Promise<LoadedJob> {
  const loaded = await readJob(server, id);
  if (!loaded) throw new ConsoleError('not_found', 'No such bulk job.');
  return loaded;
}

/** 403 when this operator may not read the job (a rotation made from tokens, for a viewer). */
function requireJobReadable(operator: Pick<Operator, 'role'>, { job, input }: LoadedJob): void {
  const refusal = jobReadRefusal(operator.role, job.kind, input);
  if (refusal) throw new ConsoleError('forbidden', refusal);
}

/**
 * What a job's route acts on, for the route frame (lib/server/route.ts): the job the URL names, if
 * this operator may read it, in its own environment (its step-up and entries are there), its
 * entries filed under its id so that they fold into its line on the audit page.
 */
export const jobRoute = {
  load: async ({
    server,
    operator,
    params,
  }: {
    server: ConsoleServer;
    operator: Pick<Operator, 'role'>;
    params: { id: string };
  }) => {
    const loaded = await loadJob(server, params.id);
    requireJobReadable(operator, loaded);
    return loaded;
  },
  environmentOf: ({ job }: JobProgress) => job.environment,
} as const;

/** The job's entries are filed under its id: they fold into its line on the audit page. */
export const filedUnderJob = ({ job }: JobProgress) => job.id;

/** How the audit log names a job: its source and the start of its id (its page's address). */
export const jobNamed = (job: Pick<BulkJobTable, 'id' | 'source'>) =>
  `job “${job.source}” (${job.id.slice(0, 8)})`;

type Note = (facts: AuditFacts) => void;

/** A download's entry, naming the job: "Result of job “a.csv” (1a2b3c4d), without tokens: 500 rows". */
export function downloadNamed(what: 'Result' | 'Preview', { job }: JobProgress, detail: string): string {
  return `${what} of ${jobNamed(job)}, ${detail}`;
}

/** The same for what a file's maker notes as it is made (its row count). */
export const namingNote =
  (what: 'Result' | 'Preview', progress: JobProgress, note: Note): Note =>
  (facts) =>
    note(facts.detail ? { ...facts, detail: downloadNamed(what, progress, facts.detail) } : facts);

/** The job's own action on record: a bulk rotation or a bulk get-or-create. */
export const jobAction = ({ job }: JobProgress) =>
  job.kind === 'rotate' ? ('bulk.rotate' as const) : ('bulk.get-or-create' as const);

export function toJobView(progress: LoadedJob): JobView {
  const { job } = progress;
  return {
    id: job.id,
    environment: job.environment,
    kind: job.kind,
    status: job.status,
    source: job.source,
    input: progress.input,
    createdAt: job.created_at,
    createdBy: job.created_by,
    startedAt: job.started_at,
    finishedAt: job.finished_at,
    pausedReason: describePauseReason(job.paused_reason, job.environment),
    tokensErasedAt: job.tokens_erased_at,
    tokensTakenBy: job.tokens_taken_by,
    counts: progress.counts,
    ratePerMinute: progress.ratePerMinute,
    secondsLeft: progress.secondsLeft,
    invalidRows: progress.invalidRows,
    failedRows: progress.failedRows,
  };
}

/** The file a result downloads as: which job, and whether the tokens are in it. */
export function resultFileName(job: Pick<BulkJobTable, 'id' | 'kind' | 'environment'>, withTokens: boolean) {
  return `${job.kind}-${job.environment.toLowerCase()}-${job.id.slice(0, 8)}${withTokens ? '-tokens' : ''}.csv`;
}

export function csvFile(csv: string, name: string): Response {
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    },
  });
}

/**
 * A CSV read and checked into a draft get-or-create job (the view previews its bad rows). Nothing
 * is sent to the service until the person starts it.
 */
export async function draftGetOrCreateJob(
  server: ConsoleServer,
  environment: Environment,
  operator: Operator,
  body: CreateGetOrCreateJob,
): Promise<JobView> {
  const reading = readGetOrCreateCsv(body.csv);
  if (!reading.ok)
    throw new ConsoleError('invalid_request', reading.message, { fields: { csv: reading.message } });
  const id = await createGetOrCreateJob(server.database.db, {
    environment,
    input: 'groups-file',
    clock: server.clock,
    source: body.source,
    owner: { id: operator.id, email: operator.email },
    rows: reading.rows,
    invalid: reading.invalid,
  });
  return toJobView(await loadJob(server, id));
}

/**
 * Tokens pasted or uploaded (or groups chosen in the directory: ticked, or every match of a search)
 * checked into a draft rotation job. The tokens are sealed at once; nothing is sent until the person
 * starts it. Each pasted token is a look-up (the draft names its group): counted, so that drafts are
 * no way around Identify's limit, and on record by fingerprint under the job's id.
 */
export async function draftRotateJob(
  server: ConsoleServer,
  environment: Environment,
  operator: Operator,
  requestId: string,
  body: CreateRotateJob,
): Promise<JobView> {
  const reading =
    'tokens' in body
      ? readTokenList(body.tokens)
      : 'search' in body
        ? await readSearch(server, environment, body.search)
        : readUserGroupIds(body.userGroupIds);
  if (!reading.ok)
    throw new ConsoleError('invalid_request', reading.message, { fields: { tokens: reading.message } });
  if ('tokens' in body)
    await spendLookUps(
      server.draftLookUpLimit,
      operator.id,
      Math.max(1, reading.rows.length),
      'Too many pasted tokens looked up in an hour',
    );
  const owner = { id: operator.id, email: operator.email };
  const id = await createRotateJob(
    server.database.db,
    server.jobs.vault,
    {
      environment,
      input: inputOf(body),
      clock: server.clock,
      source: body.source,
      owner,
      rows: reading.rows,
      invalid: reading.invalid,
      sendUnknown: 'tokens' in body && body.sendUnknown === true,
    },
    (jobId, lookUps) =>
      writeMany(
        server.auditLog,
        lookUps.map(({ token, userGroupId, standing }) => ({
          action: 'token.identify',
          operator: owner,
          outcome: 'success',
          requestId: jobId,
          environment,
          userGroupId,
          token,
          detail: `pasted into draft rotation ${jobNamed({ id: jobId, source: body.source })}${lookUpNote[standing]}; request ${requestId}`,
        })),
      ),
  );
  return toJobView(await loadJob(server, id));
}

/** What a rotation is made from, as its body says. */
const inputOf = (body: CreateRotateJob): JobInput =>
  'tokens' in body ? (body.tokensFrom === 'file' ? 'tokens-file' : 'pasted-tokens') : 'directory';

/** What the look-up of a pasted token found, as its audit entry says it. */
const lookUpNote: Record<RowStanding, string> = {
  current: '',
  replaced: ': no longer its group’s current token',
  deleted: ': its group was deleted',
  unknown: ': unknown to the console',
};

/** Every group the directory search matches, as if each had been ticked (one more tells "too many"). */
async function readSearch(server: ConsoleServer, environment: Environment, search: string) {
  const ids = await directoryMatchingIds(server.database, environment, search, MAX_ROTATIONS + 1);
  if (ids.length === 0)
    return { ok: false as const, message: `No group in the directory matches “${search}” any more.` };
  return readUserGroupIds(ids);
}
