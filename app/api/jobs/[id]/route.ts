import { recordAuditEvent, settleAuditEvent } from '@/lib/audit/store';
import { ConsoleError } from '@/lib/console-api/console-error';
import { type JobActionBody, type JobView, jobActionSchema } from '@/lib/console-api/jobs';
import { steerJob } from '@/lib/jobs/store';
import { audit } from '@/lib/server/audit-log';
import { loadJob, requireJobPermission, toJobView } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

type Params = { id: string };

/** A job's progress, for every operator (no token is in it). */
export const GET = consoleRoute<undefined, JobView, Params>(
  { name: 'jobs.read', permission: 'audit:read' },
  async ({ params, server }) => toJobView(await loadJob(server, params.id)),
);

const refusals: Record<JobActionBody['action'], string> = {
  start: 'Only a job not yet started can be started.',
  pause: 'Only a running job can be paused.',
  resume: 'Only a paused job can be resumed.',
  cancel: 'This job has already ended.',
};

/**
 * Start, pause, resume or cancel. Starting writes the job's audit entry (each row gets its own as
 * it runs); in Customer, starting a rotation asks for the number of tokens, typed.
 */
export const POST = consoleRoute<JobActionBody, JobView, Params>(
  { name: 'jobs.steer', permission: 'user-groups:get-or-create', body: jobActionSchema },
  async ({ body, params, operator, requestId, server }) => {
    const { db } = server.database;
    const before = await loadJob(server, params.id);
    const { job, counts } = before;
    requireJobPermission(operator.role, job.kind);
    let auditEventId: number | undefined;
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
          `Type ${counts.total} to confirm rotating ${counts.total} tokens in Customer.`,
          {
            fields: { confirmation: `Type ${counts.total} to confirm.` },
          },
        );
      }
      auditEventId = await audit({
        action: job.kind === 'rotate' ? 'bulk.rotate' : 'bulk.get-or-create',
        operator: { id: operator.id, email: operator.email },
        outcome: 'started',
        requestId: job.id,
        environment: job.environment,
        detail: `${job.source}: ${counts.total} rows (${counts.invalid} refused by the preview); request ${requestId}`,
      });
    }
    const after = await steerJob(
      db,
      job.id,
      body.action,
      auditEventId === undefined ? {} : { audit_event_id: auditEventId },
    );
    if (!after) {
      if (auditEventId !== undefined) await settleAuditEvent(db, auditEventId, { outcome: 'conflict' });
      throw new ConsoleError('conflict', refusals[body.action]);
    }
    if (body.action === 'cancel' && after.audit_event_id !== null)
      await settleAuditEvent(db, after.audit_event_id, { outcome: 'cancelled' });
    if (body.action === 'pause' || body.action === 'resume' || body.action === 'cancel') {
      await recordAuditEvent(db, {
        action: job.kind === 'rotate' ? 'bulk.rotate' : 'bulk.get-or-create',
        operator: { id: operator.id, email: operator.email },
        outcome: 'success',
        requestId: job.id,
        environment: job.environment,
        detail: `${body.action}; request ${requestId}`,
      });
    }
    if (body.action === 'start' || body.action === 'resume') server.jobs.runner.wake();
    return toJobView(await loadJob(server, job.id));
  },
);
