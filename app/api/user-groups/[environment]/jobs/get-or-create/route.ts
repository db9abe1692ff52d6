import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { readGetOrCreateCsv } from '@/lib/jobs/csv';
import { createGetOrCreateJob } from '@/lib/jobs/store';
import { loadJob, toJobView } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';
import { routeEnvironment } from '@/lib/server/route-params';

/**
 * A CSV read and checked into a draft job: the answer previews its bad rows. Nothing is sent to the
 * service until the person starts the job.
 */
export const POST = consoleRoute(
  consoleRoutes.createGetOrCreateJob,
  async ({ body, params, operator, server }) => {
    const environment = routeEnvironment(params.environment);
    const reading = readGetOrCreateCsv(body.csv);
    if (!reading.ok)
      throw new ConsoleError('invalid_request', reading.message, { fields: { csv: reading.message } });
    const id = await createGetOrCreateJob(server.database.db, {
      environment,
      source: body.source,
      owner: { id: operator.id, email: operator.email },
      rows: reading.rows,
      invalid: reading.invalid,
    });
    return toJobView(await loadJob(server, id));
  },
);
