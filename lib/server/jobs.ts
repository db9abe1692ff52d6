import 'server-only';
import type { JobView } from '@/lib/console-api/jobs';
import { ConsoleError } from '@/lib/console-error';
import { describePauseReason } from '@/lib/jobs/pause-reasons';
import type { BulkJobTable, JobKind } from '@/lib/jobs/schema';
import { type JobProgress, jobProgress } from '@/lib/jobs/store';
import { can, hasRole, type Permission, permissionWords, type Role } from '@/lib/roles';
import { accessErrors } from './errors';
import type { ConsoleServer, Operator } from './index';
import { requireRecentAuthentication } from './step-up';

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

/**
 * A job's action in its own environment needs a recent authentication there (lib/server/step-up.ts);
 * a refusal is on record, as the route frame records one for a single action: `record` writes the
 * entry with the refusal's code as its outcome.
 */
export async function requireJobStepUp(
  server: ConsoleServer,
  operator: Operator,
  job: Pick<BulkJobTable, 'environment'>,
  record: (outcome: string) => Promise<unknown>,
): Promise<void> {
  try {
    requireRecentAuthentication(operator, { environment: job.environment }, server.config);
  } catch (error) {
    if (error instanceof ConsoleError) await record(error.code).catch(() => undefined);
    throw error;
  }
}

/** The job and its progress, or 404. */
export async function loadJob(server: ConsoleServer, id: string): Promise<JobProgress> {
  const progress = await jobProgress(server.database.db, id);
  if (!progress) throw new ConsoleError('not_found', 'No such bulk job.');
  return progress;
}

export function toJobView(progress: JobProgress): JobView {
  const { job } = progress;
  return {
    id: job.id,
    environment: job.environment,
    kind: job.kind,
    status: job.status,
    source: job.source,
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
