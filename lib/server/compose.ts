/**
 * The composition root: builds the console's server-side objects from one configuration (the
 * database, better-auth wired to the audit log) for the Next server (lib/server/index.ts) and the
 * launcher alike. Plain module: the launcher runs it under tsx, outside React's server environment.
 */
import { recordAuditEvent } from '@/lib/audit/store';
import { type ConsoleAuth, createConsoleAuth } from '@/lib/auth/options';
import type { ConsoleConfig } from '@/lib/config';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { currentRequestId } from './request-context';

export interface ConsoleParts {
  config: ConsoleConfig;
  database: ConsoleDatabase;
  auth: ConsoleAuth;
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export function composeConsole(config: ConsoleConfig, log: Log): ConsoleParts {
  const database = openConsoleDatabase(config.database);
  const auth = createConsoleAuth(config, database, {
    log,
    // Every sign-in, by password or SSO, is on record (failures are recorded by the auth route).
    onSessionCreated: async ({ userId, path }) => {
      const user = await database.db
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
  return { config, database, auth };
}
