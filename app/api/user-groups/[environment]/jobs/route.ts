import type { JobSummary } from '@/lib/console-api/jobs';
import { listJobs } from '@/lib/jobs/store';
import { routeEnvironment } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';

/** An environment's recent bulk jobs, newest first: visible to every operator. */
export const GET = consoleRoute<undefined, { jobs: JobSummary[] }, { environment: string }>(
  { name: 'jobs.list', permission: 'audit:read' },
  async ({ params, server }) => {
    const environment = routeEnvironment(params.environment);
    const jobs = await listJobs(server.database.db, environment);
    return {
      jobs: jobs.map((job) => ({
        id: job.id,
        kind: job.kind,
        status: job.status,
        source: job.source,
        createdAt: job.created_at,
        createdBy: job.created_by,
        finishedAt: job.finished_at,
      })),
    };
  },
);
