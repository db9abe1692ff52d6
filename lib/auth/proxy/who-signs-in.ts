import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';

/** Who a failed attempt was for: the operator's id when the email is one of theirs. */
export async function knownOperator(
  database: { db: ConsoleDb },
  email: string | null,
): Promise<{ id: string | null; email: string | null } | null> {
  if (!email) return null;
  const row = await database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
  // Not an operator's: whatever was typed (a password in the email field?) stays off the record.
  return row ? { id: row.id, email } : null;
}

/**
 * Whose second step this is: the operator the challenge cookie (set by the password step) names,
 * for the limiter's email key, the used-code check and the audit entry. The cookie's signature is
 * better-auth's to check; its identifier is random, so only the browser that passed the password
 * step knows it. A header better-auth might read otherwise than this (two such cookies, a quoted
 * value, the other prefix) is refused, so the entry cannot name someone else than the one checked.
 */
export async function challengedOperator(
  request: Request,
  { db }: { db: ConsoleDb },
  secureCookies: boolean,
): Promise<{ id: string; email: string } | null> {
  const cookies = request.headers.get('cookie') ?? '';
  const name = `${secureCookies ? '__Secure-' : ''}console.two_factor`;
  const all = [...cookies.matchAll(/(?:^|;)\s*([^=;\s]*two_factor)\s*=\s*([^;]*)/g)];
  if (all.length === 0) return null;
  const [found] = all;
  if (all.length > 1 || found?.[1] !== name || found[2]?.startsWith('"'))
    throw new ConsoleError('invalid_request', 'This sign-in cannot be read: start again with your password.');
  let signed: string;
  try {
    signed = decodeURIComponent(found[2] ?? '');
  } catch {
    return null;
  }
  const identifier = signed.slice(0, Math.max(0, signed.lastIndexOf('.')));
  if (!identifier.startsWith('2fa-')) return null;
  const row = await db
    .selectFrom('verification')
    .innerJoin('user', 'user.id', 'verification.value')
    .select(['user.id', 'user.email'])
    .where('verification.identifier', '=', identifier)
    .executeTakeFirst();
  return row ?? null;
}
