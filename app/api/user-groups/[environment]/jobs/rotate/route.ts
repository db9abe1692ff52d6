import { ConsoleError } from '@/lib/console-api/console-error';
import { type CreateRotateJob, createRotateJobSchema, type JobView } from '@/lib/console-api/jobs';
import { createRotateJob } from '@/lib/jobs/store';
import { readTokenList, readUserGroupIds } from '@/lib/jobs/token-list';
import { routeEnvironment } from '@/lib/server/errors';
import { loadJob, toJobView } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

/**
 * Tokens pasted or uploaded (or groups chosen in the directory) checked into a draft rotation job.
 * The tokens are sealed at once; nothing is sent until the person starts the job.
 */
export const POST = consoleRoute<CreateRotateJob, JobView, { environment: string }>(
  { name: 'jobs.create-rotate', permission: 'user-groups:rotate', body: createRotateJobSchema },
  async ({ body, params, operator, server }) => {
    const environment = routeEnvironment(params.environment);
    const reading = 'tokens' in body ? readTokenList(body.tokens) : readUserGroupIds(body.userGroupIds);
    if (!reading.ok)
      throw new ConsoleError('invalid_request', reading.message, { fields: { tokens: reading.message } });
    const id = await createRotateJob(server.database.db, server.jobs.vault, {
      environment,
      source: body.source,
      owner: { id: operator.id, email: operator.email },
      rows: reading.rows,
      invalid: reading.invalid,
    });
    return toJobView(await loadJob(server, id));
  },
);
