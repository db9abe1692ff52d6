import { consoleRoutes } from '@/lib/console-api/routes';
import { draftGetOrCreateJob } from '@/lib/jobs/server';
import { consoleRoute } from '@/lib/server/route';

/** A CSV read and checked into a draft job: the answer previews its bad rows. */
export const POST = consoleRoute(
  consoleRoutes.createGetOrCreateJob,
  ({ body, environment, operator, server }) => draftGetOrCreateJob(server, environment, operator, body),
);
