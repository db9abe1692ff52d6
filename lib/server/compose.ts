/**
 * The composition root: builds the console's server-side objects from one configuration (the
 * database, better-auth wired to the audit log) for the Next server (lib/server/index.ts) and the
 * launcher alike. Plain module: the launcher runs it under tsx, outside React's server environment.
 */
import { recordAuditEvent, settleAuditEvent } from '@/lib/audit/store';
import {
  BACKUP_CODE_SIGN_IN_PATH,
  type ConsoleAuth,
  createConsoleAuth,
  type NewSession,
  PASSKEY_SIGN_IN_PATH,
  TOTP_SIGN_IN_PATH,
} from '@/lib/auth/options';
import type { ConsoleConfig } from '@/lib/config';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { currentRequestId, idpAuthentication, replacedSessionCarry } from './request-context';

export interface ConsoleParts {
  config: ConsoleConfig;
  database: ConsoleDatabase;
  auth: ConsoleAuth;
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export function composeConsole(config: ConsoleConfig, log: Log): ConsoleParts {
  const database = openConsoleDatabase(config.database);
  const signIns = signInRecord(database, log);
  const auth = createConsoleAuth(config, database, {
    log,
    onSessionCreating: signIns.start,
    onSessionCreated: signIns.settle,
    replacedSessionCarry,
    idpAuthentication,
  });
  return { config, database, auth };
}

/** How a session came about, in the sign-in entry's words. */
function signInDetail(path: string | undefined, twoFactorEnabled: boolean, passkeys: number): string {
  if (path?.startsWith('/callback')) return 'single sign-on';
  if (path === PASSKEY_SIGN_IN_PATH) return 'a passkey';
  if (path === TOTP_SIGN_IN_PATH) return 'email and password, then an authenticator code';
  if (path === BACKUP_CODE_SIGN_IN_PATH) return 'email and password, then a backup code';
  if (twoFactorEnabled) return 'email and password; the second factor is asked next';
  return passkeys > 0 ? 'email and password; the passkey is asked next' : 'email and password';
}

/**
 * Every sign-in, by password or SSO, is on record before its session exists (`started`; when the
 * entry cannot be written, the session is not created), and settled `success` once it does. An
 * operator with a second factor passes the password first (settled `second_factor_asked`: that
 * session is dropped at once), then the code, which is the sign-in. Failures are recorded by the
 * auth route.
 */
function signInRecord(database: ConsoleDatabase, log: Log) {
  /** Entry ids and their outcome by session token, from `start` to `settle`. */
  const unsettled = new Map<string, { id: number; outcome: string }>();
  // A session whose insert failed after its entry was written is never settled: its entry stays
  // `started`, and the oldest such ids are dropped here rather than kept for ever.
  const MAX_UNSETTLED = 1_000;
  return {
    start: async ({ userId, token, path }: NewSession) => {
      const user = await database.db
        .selectFrom('user')
        .select(['email', 'twoFactorEnabled'])
        // A passkey-only operator's password is followed by the passkey: the entry says so.
        .select((eb) =>
          eb
            .selectFrom('passkey')
            .select((inner) => inner.fn.countAll<number | string>().as('count'))
            .whereRef('passkey.userId', '=', 'user.id')
            .as('passkeys'),
        )
        .where('id', '=', userId)
        .executeTakeFirst();
      const firstFactorOnly = path === '/sign-in/email' && Boolean(user?.twoFactorEnabled);
      const id = await recordAuditEvent(database.db, {
        action: 'sign-in',
        operator: { id: userId, email: user?.email ?? null },
        outcome: 'started',
        requestId: currentRequestId(),
        detail: signInDetail(path, Boolean(user?.twoFactorEnabled), Number(user?.passkeys ?? 0)),
      });
      if (unsettled.size >= MAX_UNSETTLED) unsettled.delete(unsettled.keys().next().value as string);
      unsettled.set(token, { id, outcome: firstFactorOnly ? 'second_factor_asked' : 'success' });
    },
    settle: async ({ token, userId }: NewSession) => {
      const entry = unsettled.get(token);
      if (entry === undefined) return;
      unsettled.delete(token);
      // A whole sign-in (not a password step whose session is dropped for the code): the operators
      // list's "last sign-in". It must not fail the sign-in, which has happened.
      if (entry.outcome === 'success')
        await database.db
          .updateTable('user')
          .set({ lastSignInAt: new Date().toISOString() })
          .where('id', '=', userId)
          .execute()
          .catch(() => log('error', 'could not note when an operator signed in'));
      // The session exists: a failure here leaves the entry `started`, which still records the sign-in.
      await settleAuditEvent(database.db, entry.id, { outcome: entry.outcome }).catch(() =>
        log('error', 'could not complete the audit entry of a sign-in'),
      );
    },
  };
}
