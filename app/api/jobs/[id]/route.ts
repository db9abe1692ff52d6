import { consoleRoutes } from '@/lib/console-api/routes';
import { jobRoute, toJobView } from '@/lib/jobs/server';
import { steer, steering } from '@/lib/jobs/steering';
import { consoleRoute } from '@/lib/server/route';

/**
 * A job's progress (no token is in it), for every operator but a viewer on a rotation made from
 * tokens: its rows say whose each token is (jobRoute's load refuses).
 */
export const GET = consoleRoute({ ...consoleRoutes.readJob, ...jobRoute }, async ({ subject }) =>
  toJobView(subject),
);

/**
 * Start, pause, resume or cancel, each on record before it happens: when its entry cannot be
 * written, the job stays as it was (503 audit_unavailable). Starting or resuming in Customer needs
 * a recent authentication; starting a rotation there asks for the number of tokens, typed.
 */
export const POST = consoleRoute(
  { ...consoleRoutes.steerJob, ...steering },
  ({ body, subject, entryId, requestId, server }) => steer(server, subject, body, entryId, requestId),
);
