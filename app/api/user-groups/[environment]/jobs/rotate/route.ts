import { consoleRoutes } from '@/lib/console-api/routes';
import { draftRotateJob } from '@/lib/jobs/server';
import { consoleRoute } from '@/lib/server/route';

/** Tokens pasted or uploaded, or groups chosen in the directory, checked into a draft rotation job. */
export const POST = consoleRoute(
  consoleRoutes.createRotateJob,
  ({ body, environment, operator, requestId, server }) =>
    draftRotateJob(server, environment, operator, requestId, body),
);
