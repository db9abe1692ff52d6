import 'server-only';
import { recordAuditEvent } from '@/lib/audit/store';
import { logger } from '@/lib/console/logger';
import { type AuthConfig, authConfig } from './config';
import { type ConsoleDatabase, openConsoleDatabase, withOperators } from './database';
import { migrateConsoleDatabase } from './migrate';
import { type ConsoleAuth, createConsoleAuth } from './options';
import { currentRequestId } from './request-context';
import { parseRole, type Role } from './roles';

/**
 * The Next server's side of operator sign-in: one better-auth instance and one console database
 * per process, built on first use (never at import: `next build` loads this module). The launcher
 * migrates before `next start`; migrating again here is a no-op then, and makes a server started
 * some other way safe too.
 */
export interface ConsoleServer {
  config: AuthConfig;
  auth: ConsoleAuth;
  database: ConsoleDatabase;
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
  const config = authConfig();
  const database = openConsoleDatabase(config.databaseFile);
  const auth = createConsoleAuth(config, database, {
    log: (level, message) => authLogger[level]({}, message),
    onSessionCreated: async ({ userId, path }) => {
      const user = await withOperators(database.db)
        .selectFrom('user')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirst();
      await recordAuditEvent(database.db, {
        action: 'sign-in',
        operator: { id: userId, email: user?.email ?? null },
        outcome: 'success',
        requestId: currentRequestId(),
        detail: path?.startsWith('/callback') ? 'single sign-on' : 'email and password',
      });
    },
  });
  await migrateConsoleDatabase(auth, database);
  return { config, auth, database };
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
