import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import type { JobActionBody, JobView } from '@/lib/jobs/contract';
import { steerJob } from '@/lib/jobs/job-transitions';
import type { JobProgress } from '@/lib/jobs/store';
import { plural } from '@/lib/plural';
import type { ConsoleServer } from '@/lib/server';
import { settleEarlier } from '@/lib/server/frame/writer';
import type { ActionAudit, RouteSpec } from '@/lib/server/route';
import { fixAdvice } from './contract';
import {
  filedUnderJob,
  jobAction,
  jobNamed,
  jobRoute,
  type LoadedJob,
  loadJob,
  requireJobPermission,
  toJobView,
} from './server';

const refusals: Record<JobActionBody['action'], string> = {
  start: 'Only a job not yet started can be started.',
  pause: 'Only a running job can be paused.',
  resume: 'Only a paused job can be resumed.',
  cancel: 'This job has already ended.',
};

/** What was asked, naming the job (its audit line reads on its own, and links by its id). */
const asked: Record<JobActionBody['action'], string> = {
  start: 'Run',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
};

/** What was done, once it was. */
const done: Record<Exclude<JobActionBody['action'], 'start'>, string> = {
  pause: 'Paused',
  resume: 'Resumed',
  cancel: 'Cancelled',
};

/**
 * Start, pause, resume or cancel, on record: starting writes the job's own entry, which stays
 * `started` until the runner settles it with the job's end (each row gets its own as it runs).
 * Each entry names the job ("Cancelled job “tokens.csv” (1a2b3c4d)"); a cancelled draft says that
 * nothing of it was sent.
 */
const steerAudit: ActionAudit<JobActionBody, JobView, LoadedJob> = {
  action: (_body, progress) => jobAction(progress),
  request: (body, { job, counts }) => ({
    detail:
      body.action === 'start'
        ? `Run ${jobNamed(job)}: ${plural(counts.total, 'row')} (${counts.invalid} refused by the preview)`
        : `${asked[body.action]} ${jobNamed(job)}`,
  }),
  result: (body, _view, { job }) =>
    body.action === 'start'
      ? {}
      : {
          detail: `${done[body.action]} ${jobNamed(job)}${body.action === 'cancel' && job.started_at === null ? ' before it started: nothing was sent' : ''}`,
        },
  outcome: (_view, body) => (body.action === 'start' ? null : 'success'),
  filedUnder: filedUnderJob,
};

/** What the steering route reads and records; the job's kind asks for its own permission. */
export const steering: Pick<
  RouteSpec<'/api/jobs/[id]', JobActionBody, JobView, LoadedJob>,
  'load' | 'environmentOf' | 'audit' | 'approval'
> = {
  ...jobRoute,
  load: async (context) => {
    const progress = await jobRoute.load(context);
    requireJobPermission(context.operator.role, progress.job.kind);
    return progress;
  },
  audit: steerAudit,
  approval: {
    action: (body, { job }) => (body.action === 'start' && job.kind === 'rotate' ? 'bulk-rotate' : null),
    subject: (_body, { job, counts }) => `rotation job ${job.source} (${plural(counts.total, 'token')})`,
  },
};

/**
 * Steers the job, its entry (`entryId`) written: a start is checked first (a job with no good row;
 * in Customer, a rotation asks for its number of tokens, typed), and cancelling settles the job's
 * own entry. Answers the job as it is now.
 */
export async function steer(
  server: ConsoleServer,
  { job, counts, input }: LoadedJob,
  body: JobActionBody,
  entryId: number | null,
  requestId: string,
): Promise<JobView> {
  if (body.action === 'start')
    requireStartable(job, counts.total, body.confirmation, fixAdvice(job.kind, input));
  const after = await steerJob(
    server.database.db,
    job.id,
    body.action,
    body.action === 'start' && entryId !== null ? { audit_event_id: entryId } : {},
    server.clock,
  );
  if (!after) throw new ConsoleError('conflict', refusals[body.action]);
  if (body.action === 'cancel' && after.audit_event_id !== null)
    await settleEarlier(server.auditLog, after.audit_event_id, { outcome: 'cancelled' }, requestId);
  if (body.action === 'start' || body.action === 'resume') server.jobs.runner.wake();
  return toJobView(await loadJob(server, job.id));
}

function requireStartable(
  job: JobProgress['job'],
  total: number,
  confirmation: string | undefined,
  advice: string,
): void {
  if (total === 0) throw new ConsoleError('conflict', `The job has no good row to run: ${advice}.`);
  if (job.environment === 'Customer' && job.kind === 'rotate' && confirmation?.trim() !== String(total))
    throw new ConsoleError(
      'invalid_request',
      `Type ${total} to confirm rotating ${plural(total, 'token')} in Customer.`,
      { fields: { confirmation: `Type ${total} to confirm.` } },
    );
}
