import { consoleRoutes } from '@/lib/console-api/routes';
import { loadJob, toJobView } from '@/lib/jobs/server';
import { steer, steering } from '@/lib/jobs/steering';
import { consoleRoute } from '@/lib/server/route';

/** A job's progress, for every operator (no token is in it). */
export const GET = consoleRoute(consoleRoutes.readJob, async ({ params, server }) =>
  toJobView(await loadJob(server, params.id)),
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
