/**
 * Invitations on the console database: made for an operator an admin added, one live link per
 * operator (a new one voids the others), used once, for 72 hours. Only the SHA-256 of a link's
 * secret is stored: the database never holds anything that opens an account. Plain module.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ConsoleDb } from '@/lib/db/console-database';

/** How long a link works. */
const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

/** 32 random bytes, base64url: 256 bits nobody guesses. */
function newInvitationSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashInvitationSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface MadeInvitation {
  secret: string;
  expiresAt: string;
}

/**
 * A new link for the operator; every earlier link of theirs that still worked stops working in the
 * same transaction, so there is never more than one.
 */
export async function makeInvitation(
  db: ConsoleDb,
  userId: string,
  createdBy: string | null,
  now: Date,
): Promise<MadeInvitation> {
  const secret = newInvitationSecret();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await voidOpenInvitations(trx, userId, now);
    await trx
      .insertInto('operator_invitation')
      .values({
        id: randomUUID(),
        user_id: userId,
        secret_hash: hashInvitationSecret(secret),
        created_at: now.toISOString(),
        created_by: createdBy,
        expires_at: expiresAt,
        used_at: null,
        voided_at: null,
      })
      .execute();
  });
  return { secret, expiresAt };
}

/** Voids the operator's links not yet used or voided (expired ones too); answers how many. */
export async function voidOpenInvitations(db: ConsoleDb, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('operator_invitation')
    .set({ voided_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type InvitationState = 'open' | 'used' | 'voided' | 'expired';

export interface FoundInvitation {
  id: string;
  userId: string;
  expiresAt: string;
  state: InvitationState;
}

/** The invitation a link's secret opens, and what became of it; null when no link has that secret. */
export async function findInvitation(
  db: ConsoleDb,
  secret: string,
  now: Date,
): Promise<FoundInvitation | null> {
  const row = await db
    .selectFrom('operator_invitation')
    .select(['id', 'user_id', 'expires_at', 'used_at', 'voided_at'])
    .where('secret_hash', '=', hashInvitationSecret(secret))
    .executeTakeFirst();
  if (!row) return null;
  const state: InvitationState = row.used_at
    ? 'used'
    : row.voided_at
      ? 'voided'
      : row.expires_at <= now.toISOString()
        ? 'expired'
        : 'open';
  return { id: row.id, userId: row.user_id, expiresAt: row.expires_at, state };
}

/**
 * Marks a link used, if it still works: true for the one request that used it, false for any
 * other (two tabs at once, a link voided or expired meanwhile).
 */
export async function claimInvitation(db: ConsoleDb, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable('operator_invitation')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claimed link back when setting the password failed after all. */
export async function unclaimInvitation(db: ConsoleDb, id: string): Promise<void> {
  await db.updateTable('operator_invitation').set({ used_at: null }).where('id', '=', id).execute();
}

/** The latest link not used or voided of each operator who has one: when it expires(d). */
export async function openInvitations(db: ConsoleDb): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('operator_invitation')
    .select(['user_id', 'expires_at'])
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.expires_at]));
}
