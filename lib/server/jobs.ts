import 'server-only';
import { ConsoleError } from '@/lib/console-api/console-error';
import type { JobView } from '@/lib/console-api/jobs';
import type { JobKind } from '@/lib/jobs/schema';
import { type JobProgress, jobProgress } from '@/lib/jobs/store';
import { can, type Permission, type Role } from '@/lib/roles';
import { accessErrors } from './errors';
import type { ConsoleServer } from './index';

/** What running or steering a job of this kind needs: the single action's permission. */
export const jobPermission: Record<JobKind, Permission> = {
  'get-or-create': 'user-groups:get-or-create',
  rotate: 'user-groups:rotate',
};

export function requireJobPermission(role: Role | null, kind: JobKind): void {
  if (!can(role, jobPermission[kind])) {
    throw accessErrors.forbidden(kind === 'rotate' ? 'rotate tokens' : 'get or create user groups');
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
    pausedReason: job.paused_reason,
    tokensErasedAt: job.tokens_erased_at,
    counts: progress.counts,
    ratePerMinute: progress.ratePerMinute,
    secondsLeft: progress.secondsLeft,
    invalidRows: progress.invalidRows,
    failedRows: progress.failedRows,
  };
}
