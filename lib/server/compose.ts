/**
 * The composition root: builds the console's server-side objects from one configuration (the
 * database, better-auth wired to the record of sign-ins it is handed) for the Next server (lib/server/index.ts) and the
 * launcher alike. Plain module: the launcher runs it under tsx, outside React's server environment.
 */
import { type ConsoleAuth, createConsoleAuth, type NewSession } from '@/lib/auth/options';
import type { Clock } from '@/lib/clock';
import type { ConsoleConfig } from '@/lib/config';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { processReadGate, type ReadGate } from '@/lib/db/read-pool/read-gate';
import { idpAuthentication, replacedSessionCarry } from './request-context';

export interface ConsoleParts {
  config: ConsoleConfig;
  database: ConsoleDatabase;
  auth: ConsoleAuth;
  /** Held by a sign-in while it hashes: the database's heavy reads wait their turn meanwhile. */
  readGate: ReadGate;
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

/** Puts sign-ins on record around their sessions (lib/server/frame/sign-in-record.ts, the server's). */
export interface SignInRecord {
  start(session: NewSession): Promise<void>;
  settle(session: NewSession): Promise<void>;
}

/**
 * `signIns`: the server's record of sign-ins, built on the database opened here; the launcher,
 * which signs nobody in, passes none.
 */
export function composeConsole(
  config: ConsoleConfig,
  log: Log,
  clock: Clock,
  signIns?: (database: ConsoleDatabase) => SignInRecord,
): ConsoleParts {
  const readGate = processReadGate(clock);
  const database = openConsoleDatabase(config.database, { readGate });
  const record = signIns?.(database);
  const auth = createConsoleAuth(config, database, {
    log,
    clock,
    onSessionCreating: record?.start,
    onSessionCreated: record?.settle,
    replacedSessionCarry,
    idpAuthentication,
  });
  return { config, database, auth, readGate };
}
