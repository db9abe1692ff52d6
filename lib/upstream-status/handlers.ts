import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { environments } from '@/lib/environments';
import { consoleRoute } from '@/lib/server/route';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/upstream-status
/**
 * How each environment's User Group Service answered lately: a probe that changes nothing upstream
 * (lib/upstream-status/server.ts), kept a few seconds, so many open pages cost one probe. Reading
 * it is not on record: it tells nothing about any group.
 */
export const upstreamStatusRoute = consoleRoute(consoleRoutes.upstreamStatus, async ({ server }) => ({
  environments: await Promise.all(
    environments.map((environment) => server.upstreamProbe.status(environment)),
  ),
}));
