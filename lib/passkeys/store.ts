/**
 * Operators' passkeys, kept by better-auth's passkey plugin (@better-auth/passkey) in its `passkey`
 * table: the plugin adds them (registration) and signs in with them; the console lists, counts and
 * removes them here, and checks a step-up against them (a passkey answer must not create a new
 * session, which the plugin's sign-in would). Credential ids and public keys stay in this module
 * and the database: never in an answer, a log line or an audit entry.
 */
import { randomUUID } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { PasskeySummary } from '@/lib/passkeys/contract';

const iso = (value: string | number | Date | null) => (value === null ? null : new Date(value).toISOString());

export async function countPasskeys(db: ConsoleDb, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom('passkey')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The operator's passkeys, newest first: name and when added (nothing of the key itself). */
export async function listPasskeys(db: ConsoleDb, userId: string): Promise<PasskeySummary[]> {
  const rows = await db
    .selectFrom('passkey')
    .select(['id', 'name', 'createdAt'])
    .where('userId', '=', userId)
    .execute();
  return rows
    .map((row) => ({ id: row.id, name: row.name?.trim() || 'Passkey', createdAt: iso(row.createdAt) }))
    .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/** The name of one of the operator's passkeys, or null when it is not theirs (or gone). */
export async function passkeyName(db: ConsoleDb, userId: string, passkeyId: string): Promise<string | null> {
  const row = await db
    .selectFrom('passkey')
    .select('name')
    .where('id', '=', passkeyId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row ? row.name?.trim() || 'Passkey' : null;
}

/** Removes one of the operator's own passkeys; false when it is not theirs (or gone already). */
export async function removePasskey(db: ConsoleDb, userId: string, passkeyId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkey')
    .where('id', '=', passkeyId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whose passkey a sign-in answer names (for the limiter's email key and the audit entry). */
export async function passkeyOwner(
  db: ConsoleDb,
  credentialId: string,
): Promise<{ id: string; email: string } | null> {
  const row = await db
    .selectFrom('passkey')
    .innerJoin('user', 'user.id', 'passkey.userId')
    .select(['user.id', 'user.email'])
    .where('passkey.credentialID', '=', credentialId)
    .executeTakeFirst();
  return row ?? null;
}

/** A step-up challenge lives as long as the plugin's sign-in challenge. */
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

const stepUpIdentifier = (sessionId: string) => `passkey-step-up-${sessionId}`;

/**
 * A step-up's challenge, for the operator's own passkeys only. It is bound to the session that
 * asked (one at a time: a new one replaces the last) and taken once by verifyStepUpPasskey.
 */
export async function startStepUpPasskey(
  db: ConsoleDb,
  clock: Pick<Clock, 'now'>,
  relyingParty: { id: string },
  operator: { id: string; sessionId: string },
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const passkeys = await db
    .selectFrom('passkey')
    .select(['credentialID', 'transports'])
    .where('userId', '=', operator.id)
    .execute();
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    userVerification: 'required',
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credentialID,
      transports: transportsOf(passkey.transports),
    })),
  });
  const identifier = stepUpIdentifier(operator.sessionId);
  const now = new Date(clock.now());
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('verification').where('identifier', '=', identifier).execute();
    await trx
      .insertInto('verification')
      .values({
        id: randomUUID(),
        identifier,
        value: options.challenge,
        expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .execute();
  });
  return options;
}

export type StepUpPasskeyRefusal = 'no_challenge' | 'unknown_passkey' | 'not_verified';

/**
 * Checks a passkey answer to the session's step-up challenge: the challenge is taken first (once,
 * whatever the outcome), the passkey must be the operator's, the answer made for the console's
 * origin with the person verified, and its counter past the stored one (the library's check);
 * the new counter is kept. Returns the passkey's name, or why it was refused.
 */
export async function verifyStepUpPasskey(
  db: ConsoleDb,
  clock: Pick<Clock, 'now'>,
  relyingParty: { id: string; origin: string },
  operator: { id: string; sessionId: string },
  response: AuthenticationResponseJSON,
): Promise<{ name: string } | { refused: StepUpPasskeyRefusal }> {
  const challenge = await takeChallenge(db, clock, stepUpIdentifier(operator.sessionId));
  if (challenge === null) return { refused: 'no_challenge' };
  const passkey = await db
    .selectFrom('passkey')
    .select(['id', 'name', 'credentialID', 'publicKey', 'counter', 'transports'])
    .where('credentialID', '=', response.id)
    .where('userId', '=', operator.id)
    .executeTakeFirst();
  if (!passkey) return { refused: 'unknown_passkey' };
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credentialID,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64')),
        counter: Number(passkey.counter),
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    // The library's reasons (wrong origin, bad signature, counter gone back…) name the key: not logged.
    return { refused: 'not_verified' };
  }
  if (!verification.verified || !verification.authenticationInfo.userVerified)
    return { refused: 'not_verified' };
  await db
    .updateTable('passkey')
    .set({ counter: verification.authenticationInfo.newCounter })
    .where('id', '=', passkey.id)
    .execute();
  return { name: passkey.name?.trim() || 'Passkey' };
}

/** The challenge of `identifier` if it is still valid; deleted either way, and by one caller only. */
async function takeChallenge(
  db: ConsoleDb,
  clock: Pick<Clock, 'now'>,
  identifier: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('verification')
    .select(['id', 'value', 'expiresAt'])
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  if (!row) return null;
  const deleted = await db.deleteFrom('verification').where('id', '=', row.id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) return null;
  return new Date(row.expiresAt).getTime() > clock.now() ? row.value : null;
}

type Transport = NonNullable<
  Parameters<typeof generateAuthenticationOptions>[0]['allowCredentials']
>[number]['transports'];

function transportsOf(stored: string | null): Transport {
  const names = (stored ?? '').split(',').filter((name) => name !== '');
  return names.length > 0 ? (names as Transport) : undefined;
}

/**
 * Whether browsers allow passkeys for the console at this URL: its host must be a name (an IP
 * address is no relying party id: Chromium answers "invalid domain"), and the page a secure
 * context: https, or http on localhost.
 */
export function passkeysWorkAt(url: URL): boolean {
  const host = url.hostname;
  const isIp = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':');
  if (isIp) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (host === 'localhost' || host.endsWith('.localhost'));
}
