import 'server-only';
import { ConfigError, type ConsoleConfig, consoleConfig } from '@/lib/config';
import { parseRole, type Role } from '@/lib/roles';
import { createUserGroupApi, type UserGroupApi } from '@/lib/user-group-api/client';
import { type ConsoleParts, composeConsole } from './compose';
import { logger } from './logger';
import { migrateConsoleDatabase } from './migrate';

/**
 * The Next server's console: built once per process on first use (never at import: `next build`
 * loads this module) and handed to pages and route handlers. The launcher migrates before the
 * server starts; migrating again here is a no-op then, and makes a server started some other way
 * safe too.
 */
export interface ConsoleServer extends ConsoleParts {
  /** The one upstream client of this process: it alone holds the API key. */
  userGroupApi(): UserGroupApi;
}

let server: Promise<ConsoleServer> | undefined;

export function consoleServer(): Promise<ConsoleServer> {
  server ??= startConsoleServer().catch((error: unknown) => {
    server = undefined;
    throw error;
  });
  return server;
}

const authLogger = logger.child({ component: 'auth' });

async function startConsoleServer(): Promise<ConsoleServer> {
  const config = consoleConfig();
  logger.level = config.logLevel;
  const parts = composeConsole(config, (level, message) => authLogger[level]({}, message));
  await migrateConsoleDatabase(parts.auth, parts.database);
  let api: UserGroupApi | undefined;
  return {
    ...parts,
    userGroupApi: () => {
      api ??= createUserGroupApi(upstreamOf(parts.config));
      return api;
    },
  };
}

function upstreamOf(config: ConsoleConfig) {
  if (!config.upstream) {
    throw new ConfigError(
      'The console is not configured: USER_GROUP_API_URL and USER_GROUP_API_KEY are not set. Start it with `npm start`.',
    );
  }
  return config.upstream;
}

export interface Operator {
  id: string;
  email: string;
  name: string;
  /** null when the stored role is not one the console knows: such an operator may do nothing. */
  role: Role | null;
}

/** The signed-in operator of a request, or null (no session, expired, or disabled). */
export async function operatorFromHeaders(headers: Headers): Promise<Operator | null> {
  const { auth } = await consoleServer();
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (!session || session.user.banned) return null;
  return {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    role: parseRole(session.user.role),
  };
}
