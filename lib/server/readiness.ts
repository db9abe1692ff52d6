import 'server-only';
import { sql } from 'kysely';
import { type Environment, environments } from '@/lib/environments';
import type { UpstreamState } from '@/lib/upstream-status/contract';
import type { ConsoleServer } from './index';
import { logger } from './logger';

/**
 * Whether this console can serve: its database answers `select 1`, and each configured
 * environment's User Group Service answers the status probe (lib/upstream-status/server.ts, the
 * header's, kept 5 s: many load balancers asking cost one probe per environment per 5 s). An
 * environment without an API key is not asked and does not count.
 *
 * An upstream outage makes every console instance not ready at once: point a load balancer's
 * health check at /api/health (liveness), and use this for what an orchestrator or an alert should
 * know (README, "Operating it").
 */
export interface Readiness {
  ready: boolean;
  database: 'answering' | 'failing';
  environments: Array<{ environment: Environment; state: UpstreamState; checkedAt: string | null }>;
}

/** Serving states: it answered and took the key (a rate limit is the service's pace, not a fault). */
const serving = (state: UpstreamState) =>
  state === 'answering' || state === 'rate_limited' || state === 'not_configured';

/** `consoleServer` is how the route gets the server: a server that cannot start is an answer too. */
export async function consoleReadiness(consoleServer: () => Promise<ConsoleServer>): Promise<Readiness> {
  let server: ConsoleServer;
  try {
    server = await consoleServer();
  } catch (error) {
    // The server could not start: its database (or its configuration) is not there.
    logger.error({ err: { name: (error as Error)?.name } }, 'readiness: the console could not start');
    return { ready: false, database: 'failing', environments: [] };
  }
  const [database, statuses] = await Promise.all([
    sql`select 1`
      .execute(server.database.db)
      .then(() => 'answering' as const)
      .catch((error: unknown) => {
        logger.error({ err: { name: (error as Error)?.name } }, 'readiness: the database does not answer');
        return 'failing' as const;
      }),
    Promise.all(environments.map((environment) => server.upstreamProbe.status(environment))),
  ]);
  return {
    ready: database === 'answering' && statuses.every((status) => serving(status.state)),
    database,
    environments: statuses.map(({ environment, state, checkedAt }) => ({ environment, state, checkedAt })),
  };
}
