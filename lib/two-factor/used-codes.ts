/**
 * Authenticator codes already used, so that none is taken twice (RFC 6238 §5.2): better-auth checks
 * a code against the secret only, and one seen over a shoulder would otherwise sign in again, or
 * pass a step-up, for the rest of its window. A use is claimed before the code is checked and given
 * back when the check fails, so a wrong code blocks nothing. The claim is one insert on a primary
 * key, so of two requests with one right code exactly one wins, on PostgreSQL as on SQLite (a
 * select-then-insert let 4 of 8 concurrent sign-ins through on PostgreSQL). Kept by a hash, never
 * the code.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Clock } from '@/lib/clock';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';

/** A code is accepted one period either side of now (30 s steps): 90 s covers its whole life. */
const CODE_LIFETIME_MS = 90_000;

/** Spaces aside ("123 456" is the code "123456" to better-auth too). */
const identifierOf = (userId: string, code: string) =>
  createHash('sha256')
    .update(`${userId}:${code.replace(/\s+/g, '')}`)
    .digest('base64url');

/**
 * True when this use is the first within the code's life; false when it was used already. A row
 * whose life is over is taken over by the same insert (the conflict's update applies only then).
 */
export async function claimCode(db: ConsoleDb, userId: string, code: string, clock: Clock): Promise<boolean> {
  const now = new Date(clock.now());
  const claimed = await db
    .insertInto('used_code')
    .values({
      identifier: identifierOf(userId, code),
      expires_at: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
    })
    .onConflict((conflict) =>
      conflict
        .column('identifier')
        .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
        .where('used_code.expires_at', '<=', now.toISOString()),
    )
    .returning('identifier')
    .executeTakeFirst();
  // Rows of codes long dead go, a few at a time: the table holds minutes of codes, never more.
  await db.deleteFrom('used_code').where('expires_at', '<', now.toISOString()).execute();
  return claimed !== undefined;
}

/** Gives a claimed use back: the code was wrong, or the action failed for another reason. */
export async function releaseCode(db: ConsoleDb, userId: string, code: string): Promise<void> {
  await db.deleteFrom('used_code').where('identifier', '=', identifierOf(userId, code)).execute();
}

const migrations: Record<string, Migration> = {
  '2026-11-26-001-used-code': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('used_code')
        // base64url SHA-256 of the operator's id and the code.
        .addColumn('identifier', 'text', (column) => column.primaryKey())
        // ISO 8601 UTC: text order is time order on both dialects.
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('used_code').execute();
    },
  },
};

export function migrateUsedCodes(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'used_codes', migrations);
}
