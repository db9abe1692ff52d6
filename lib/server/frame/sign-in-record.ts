import 'server-only';
import type { AuditLog } from '@/lib/audit/audit-log';
import {
  BACKUP_CODE_SIGN_IN_PATH,
  type NewSession,
  PASSKEY_SIGN_IN_PATH,
  TOTP_SIGN_IN_PATH,
} from '@/lib/auth/options';
import type { Clock } from '@/lib/clock';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { SignInRecord } from '../compose';
import { currentRequestId } from '../request-context';
import { signInEntries } from './writer';

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
export function signInRecord({
  database,
  auditLog,
  clock,
  log,
}: {
  database: ConsoleDatabase;
  auditLog: Pick<AuditLog, 'record' | 'settle'>;
  clock: Pick<Clock, 'now'>;
  log: (level: 'error', message: string) => void;
}): SignInRecord {
  const entries = signInEntries(auditLog);
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
      // Through the fail-closed writer: a sign-in it cannot record does not happen.
      const id = await entries.started({
        action: 'sign-in',
        operator: { id: userId, email: user?.email ?? null },
        requestId: currentRequestId(),
        detail: signInDetail(path, Boolean(user?.twoFactorEnabled), Number(user?.passkeys ?? 0)),
      });
      if (unsettled.size >= MAX_UNSETTLED) unsettled.delete(unsettled.keys().next().value as string);
      unsettled.set(token, { id, outcome: firstFactorOnly ? 'second_factor_asked' : 'success' });
    },
    settle: async ({ token, userId }: NewSession) => {
      const requestId = currentRequestId();
      const entry = unsettled.get(token);
      if (entry === undefined) return;
      unsettled.delete(token);
      // A whole sign-in (not a password step whose session is dropped for the code): the operators
      // list's "last sign-in". It must not fail the sign-in, which has happened. Beside the
      // settlement, not before it: one round trip less for the person waiting.
      const noted =
        entry.outcome === 'success' &&
        database.db
          .updateTable('user')
          .set({ lastSignInAt: new Date(clock.now()).toISOString() })
          .where('id', '=', userId)
          .execute()
          .catch(() => log('error', 'could not note when an operator signed in'));
      // The session exists: a failure here leaves the entry `started`, which still records the sign-in.
      // (The writer logs a settlement it could not write; it never throws.)
      await Promise.all([noted, entries.settled(entry.id, entry.outcome, requestId)]);
    },
  };
}
