import type { JobActionBody } from '@/lib/console-api/jobs';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { steerJob } from '@/lib/jobs/store';
import { plural } from '@/lib/plural';
import { loadJob, requireJobPermission, requireJobStepUp, toJobView } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

/** A job's progress, for every operator (no token is in it). */
export const GET = consoleRoute(consoleRoutes.readJob, async ({ params, server }) =>
  toJobView(await loadJob(server, params.id)),
);

const refusals: Record<JobActionBody['action'], string> = {
  start: 'Only a job not yet started can be started.',
  pause: 'Only a running job can be paused.',
  resume: 'Only a paused job can be resumed.',
  cancel: 'This job has already ended.',
};

/**
 * Start, pause, resume or cancel, each on record before it happens: when its entry cannot be
 * written, the job stays as it was (503 audit_unavailable). Starting writes the job's own entry
 * (each row gets its own as it runs, and the job's is settled when it ends); in Customer, starting
 * a rotation asks for the number of tokens, typed.
 */
export const POST = consoleRoute(
  consoleRoutes.steerJob,
  async ({ body, params, operator, requestId, server }) => {
    const { db } = server.database;
    const { job, counts } = await loadJob(server, params.id);
    requireJobPermission(operator.role, job.kind);
    // Sending to production needs a recent authentication; pausing and cancelling never wait for one.
    const jobAction = job.kind === 'rotate' ? 'bulk.rotate' : 'bulk.get-or-create';
    if (body.action === 'start' || body.action === 'resume')
      await requireJobStepUp(server, operator, job, (outcome) =>
        server.auditLog.record({
          action: jobAction,
          operator: { id: operator.id, email: operator.email },
          outcome,
          requestId: job.id,
          environment: job.environment,
          detail: `${body.action}; request ${requestId}`,
        }),
      );
    if (body.action === 'start') {
      if (counts.total === 0)
        throw new ConsoleError(
          'conflict',
          'The job has no good row to run: fix the file and upload it again.',
        );
      if (
        job.environment === 'Customer' &&
        job.kind === 'rotate' &&
        body.confirmation?.trim() !== String(counts.total)
      ) {
        throw new ConsoleError(
          'invalid_request',
          `Type ${counts.total} to confirm rotating ${plural(counts.total, 'token')} in Customer.`,
          {
            fields: { confirmation: `Type ${counts.total} to confirm.` },
          },
        );
      }
    }
    const entryId = await server.auditLog.record({
      action: jobAction,
      operator: { id: operator.id, email: operator.email },
      outcome: 'started',
      requestId: job.id,
      environment: job.environment,
      detail:
        body.action === 'start'
          ? `${job.source}: ${plural(counts.total, 'row')} (${counts.invalid} refused by the preview); request ${requestId}`
          : `${body.action}; request ${requestId}`,
    });
    const after = await steerJob(
      db,
      job.id,
      body.action,
      body.action === 'start' ? { audit_event_id: entryId } : {},
    ).catch(async (error: unknown) => {
      await server.auditLog.settle(entryId, { outcome: 'internal' }, requestId);
      throw error;
    });
    if (!after) {
      await server.auditLog.settle(entryId, { outcome: 'conflict' }, requestId);
      throw new ConsoleError('conflict', refusals[body.action]);
    }
    // A started job's entry stays `started` until the runner settles it with the job's end.
    if (body.action !== 'start') await server.auditLog.settle(entryId, { outcome: 'success' }, requestId);
    if (body.action === 'cancel' && after.audit_event_id !== null)
      await server.auditLog.settle(after.audit_event_id, { outcome: 'cancelled' }, requestId);
    if (body.action === 'start' || body.action === 'resume') server.jobs.runner.wake();
    return toJobView(await loadJob(server, job.id));
  },
);
