import { consoleRoutes } from '@/lib/console-api/routes';
import { environments } from '@/lib/environments';
import { consoleRoute } from '@/lib/server/route';

/**
 * How each environment's User Group Service answered lately: a probe that changes nothing upstream
 * (lib/upstream-status/server.ts), kept a few seconds, so many open pages cost one probe. Reading
 * it is not on record: it tells nothing about any group.
 */
export const GET = consoleRoute(consoleRoutes.upstreamStatus, async ({ server }) => ({
  environments: await Promise.all(
    environments.map((environment) => server.upstreamProbe.status(environment)),
  ),
}));
