/**
 * Operators' open sessions in better-auth's `session` table: listed for their owner, ended by them
 * or by an admin. Ending deletes the row, so that browser is signed out on its next request.
 */

import type { SignInMethod } from '@/lib/auth/options';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { SessionSummary } from '@/lib/sessions/contract';

const iso = (value: string | number | Date | null) => (value === null ? null : new Date(value).toISOString());

export async function listSessions(
  db: ConsoleDb,
  userId: string,
  currentId: string,
  clock: Clock,
): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom('session')
    .select(['id', 'createdAt', 'expiresAt', 'ipAddress', 'userAgent', 'signInMethod', 'steppedUpAt'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', new Date(clock.now()).toISOString())
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      current: row.id === currentId,
      browser: browserOf(row.userAgent),
      address: row.ipAddress || null,
      signedInAt: iso(row.createdAt) ?? '',
      confirmedAt: iso(row.steppedUpAt),
      expiresAt: iso(row.expiresAt) ?? '',
      signInMethod: signInMethodOf(row.signInMethod),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.signedInAt.localeCompare(a.signedInAt));
}

/** The stored method; rows from before passkeys (or without one) read as a password sign-in. */
export function signInMethodOf(stored: string | null | undefined): SignInMethod {
  return stored === 'sso' || stored === 'passkey' ? stored : 'password';
}

/** Ends one of the operator's sessions, or all but `keep`; answers how many ended. */
export async function endSessions(
  db: ConsoleDb,
  userId: string,
  which: { sessionId: string } | { allBut: string | null },
): Promise<number> {
  let query = db.deleteFrom('session').where('userId', '=', userId);
  if ('sessionId' in which) query = query.where('id', '=', which.sessionId);
  else if (which.allBut !== null) query = query.where('id', '!=', which.allBut);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Ends the operator's sessions that have not proved a second factor (a password sign-in waiting for
 * its passkey or code), but `keep`: once the operator has no second factor left, such a session
 * would otherwise stop waiting and open the console on a password alone.
 */
export async function endUnprovedSessions(
  db: ConsoleDb,
  userId: string,
  keep: string | null,
): Promise<number> {
  let query = db.deleteFrom('session').where('userId', '=', userId).where('secondFactorAt', 'is', null);
  if (keep !== null) query = query.where('id', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** "Chrome on Windows": enough to tell one's own browsers apart, no more. */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser =
    [
      ['Edge', /Edg\//],
      ['Opera', /OPR\//],
      ['Firefox', /Firefox\//],
      ['Chrome', /Chrome\//],
      ['Safari', /Safari\//],
    ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] ?? 'Unknown browser';
  const system =
    [
      ['iOS', /iPhone|iPad/],
      ['Android', /Android/],
      ['Windows', /Windows/],
      ['macOS', /Mac OS X/],
      ['Linux', /Linux/],
    ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] ?? null;
  return system ? `${browser} on ${system}` : String(browser);
}
