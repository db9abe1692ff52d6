/**
 * Authenticator codes already used, so that none is taken twice (RFC 6238 §5.2): better-auth checks
 * a code against the secret only, and one seen over a shoulder would otherwise sign in again, or
 * pass a step-up, for the rest of its window. A use is claimed before the code is checked and given
 * back when the check fails, so a wrong code blocks nothing and two requests with one right code
 * cannot both pass. Kept in better-auth's `verification` table, by a hash (never the code).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConsoleDb } from '@/lib/db/console-database';

/** A code is accepted one period either side of now (30 s steps): 90 s covers its whole life. */
const CODE_LIFETIME_MS = 90_000;

const identifierOf = (userId: string, code: string) =>
  `used-totp-${createHash('sha256').update(`${userId}:${code}`).digest('base64url')}`;

/** True when this use is the first within the code's life; false when it was used already. */
export async function claimCode(db: ConsoleDb, userId: string, code: string): Promise<boolean> {
  const identifier = identifierOf(userId, code);
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('verification')
      .select('id')
      .where('identifier', '=', identifier)
      .where('expiresAt', '>', now.toISOString())
      .executeTakeFirst();
    if (used) return false;
    await trx
      .insertInto('verification')
      .values({
        id: randomUUID(),
        identifier,
        value: userId,
        expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .execute();
    return true;
  });
}

/** Gives a claimed use back: the code was wrong, or the action failed for another reason. */
export async function releaseCode(db: ConsoleDb, userId: string, code: string): Promise<void> {
  await db.deleteFrom('verification').where('identifier', '=', identifierOf(userId, code)).execute();
}
