import 'server-only';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isAPIError } from 'better-auth/api';
import QRCode from 'qrcode';
import type { ConsoleConfig } from '@/lib/config/index';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { type StepUpPasskeyRefusal, verifyStepUpPasskey } from '@/lib/passkeys/store';
import type { ConsoleServer, Operator, OperatorSession } from '@/lib/server';
import { carriedFrom, replacingSession } from '@/lib/server/request-context';
import { isAuthenticatorCode, type StepUpRequest } from '@/lib/two-factor/contract';
import { claimCode, releaseCode } from '@/lib/two-factor/used-codes';

/**
 * An operator's second factor through better-auth's two-factor plugin, called on the server with
 * the request's cookies, so that the browser never talks to those endpoints itself and every
 * refusal reaches a person in the console's words (better-auth's own codes stay here).
 */

const fieldError = (field: string, message: string) =>
  new ConsoleError('invalid_request', `Check the input: ${field} ${message}.`, {
    fields: { [field]: message },
  });

/** better-auth's refusals, in the console's words; anything else is the console's own failure. */
function inConsoleWords(error: unknown): unknown {
  if (!isAPIError(error)) return error;
  const code = (error.body as { code?: string } | undefined)?.code;
  switch (code) {
    case 'INVALID_PASSWORD':
      return fieldError('password', 'is not your current password');
    case 'INVALID_CODE':
      return fieldError('code', 'is not the code your app shows now (check the phone’s clock)');
    case 'INVALID_BACKUP_CODE':
      return fieldError('code', 'is not one of your unused backup codes');
    case 'TOTP_ALREADY_ENABLED':
      return new ConsoleError('conflict', 'You already have an authenticator app: remove it first.');
    case 'TOTP_NOT_ENABLED':
    case 'TWO_FACTOR_NOT_ENABLED':
    case 'BACKUP_CODES_NOT_ENABLED':
      return new ConsoleError('conflict', 'You have no authenticator app set up.');
    case undefined:
      // Two uses of one backup code at once: better-auth settles them with a bare CONFLICT.
      return error.statusCode === 409 ? fieldError('code', 'is not one of your unused backup codes') : error;
    case 'CREDENTIAL_ACCOUNT_NOT_FOUND':
      return new ConsoleError(
        'conflict',
        'You sign in through single sign-on: you have no console password.',
      );
    default:
      return error;
  }
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw inConsoleWords(error);
  }
}

/** Step one: a new secret (not yet in use) and ten backup codes, for the password. */
export async function startEnrolment(server: ConsoleServer, headers: Headers, password: string | undefined) {
  const answer = await call(() =>
    server.auth.api.enableTwoFactor({ body: { password, method: 'totp' }, headers }),
  );
  if (!('totpURI' in answer) || !answer.totpURI || !answer.backupCodes)
    throw new Error('the two-factor plugin answered without a secret');
  const secret = new URL(answer.totpURI).searchParams.get('secret') ?? '';
  // Drawn here: the QR code library stays out of the browser's bundle.
  const qrSvg = await QRCode.toString(answer.totpURI, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { totpUri: answer.totpURI, secret, qrSvg, backupCodes: answer.backupCodes };
}

/**
 * Step two: the app's first code turns the second factor on. better-auth then replaces the session
 * (no sign-in: see replacingSession), which keeps how it signed in and has now proved the factor;
 * the answer's cookie is handed on to the browser.
 */
export async function confirmEnrolment(
  server: ConsoleServer,
  headers: Headers,
  requestId: string,
  code: string,
  operator: Pick<Operator, 'id' | 'session'>,
): Promise<Headers> {
  // The code that turns the app on is used up like any other: it does not sign in again.
  const { db } = server.database;
  if (!(await claimCode(db, operator.id, code, server.clock)))
    throw fieldError('code', 'was used already: wait for the next one your app shows');
  try {
    const answer = await call(() =>
      replacingSession(
        requestId,
        () => server.auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true }),
        {
          signInMethod: operator.session.signInMethod,
          secondFactorAt: new Date(server.clock.now()).toISOString(),
        },
      ),
    );
    return answer.headers;
  } catch (error) {
    await releaseCode(db, operator.id, code);
    throw error;
  }
}

export async function newBackupCodes(server: ConsoleServer, headers: Headers, password: string | undefined) {
  const answer = await call(() => server.auth.api.generateBackupCodes({ body: { password }, headers }));
  return { backupCodes: answer.backupCodes };
}

export async function removeSecondFactor(
  server: ConsoleServer,
  headers: Headers,
  requestId: string,
  password: string | undefined,
  session: OperatorSession,
): Promise<Headers> {
  const answer = await call(() =>
    replacingSession(
      requestId,
      () => server.auth.api.disableTwoFactor({ body: { password }, headers, returnHeaders: true }),
      // Removing the app leaves what the session proved: a passkey may still be its second factor.
      carriedFrom(session, server.clock),
    ),
  );
  return answer.headers;
}

/**
 * Checks a step-up: the password, an authenticator code (only once one is on: a pending enrolment's
 * code would turn it on), a backup code, which is then used up, or a passkey's answer to this
 * session's challenge (lib/passkeys/store.ts).
 */
export async function verifyStepUp(
  server: ConsoleServer,
  headers: Headers,
  operator: { id: string; twoFactorEnabled: boolean; session: { id: string } },
  proof: StepUpRequest,
): Promise<'password' | 'authenticator code' | 'backup code' | 'passkey'> {
  if ('password' in proof) {
    await call(() => server.auth.api.verifyPassword({ body: { password: proof.password }, headers }));
    return 'password';
  }
  if ('passkey' in proof) {
    const checked = await verifyStepUpPasskey(
      server.database.db,
      server.clock,
      relyingPartyOf(server.config),
      { id: operator.id, sessionId: operator.session.id },
      proof.passkey as AuthenticationResponseJSON,
    );
    if ('refused' in checked) throw fieldError('passkey', passkeyRefusals[checked.refused]);
    return 'passkey';
  }
  if (!operator.twoFactorEnabled)
    throw fieldError('code', 'cannot be checked: you have no authenticator app (use your password)');
  if (isAuthenticatorCode(proof.code)) {
    // Once only (lib/two-factor/used-codes.ts): a code seen over a shoulder does not confirm again.
    const { db } = server.database;
    if (!(await claimCode(db, operator.id, proof.code, server.clock)))
      throw fieldError('code', 'was used already: wait for the next one your app shows');
    try {
      await call(() => server.auth.api.verifyTOTP({ body: { code: proof.code }, headers }));
    } catch (error) {
      await releaseCode(db, operator.id, proof.code);
      throw error;
    }
    return 'authenticator code';
  }
  await call(() =>
    server.auth.api.verifyBackupCode({ body: { code: proof.code, disableSession: true }, headers }),
  );
  return 'backup code';
}

const passkeyRefusals: Record<StepUpPasskeyRefusal, string> = {
  no_challenge: 'was not asked for, or took too long: try again',
  unknown_passkey: 'is not one of your passkeys',
  not_verified: 'could not be checked (it must ask for your PIN, fingerprint or face): try again',
};

/** The relying party of the console's passkeys: its URL's host name and origin (CONSOLE_URL). */
export function relyingPartyOf(config: ConsoleConfig): { id: string; origin: string } {
  return { id: config.consoleUrl.hostname, origin: config.consoleUrl.origin };
}

/**
 * An admin's reset: the operator's second factors (authenticator app, backup codes, passkeys) and
 * sessions are gone, and they enrol again when asked.
 */
export async function resetSecondFactor(database: ConsoleDatabase, operatorId: string): Promise<void> {
  // better-sqlite3 binds no booleans: SQLite keeps them as 0/1.
  const off = database.dialect === 'sqlite' ? 0 : false;
  await database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('twoFactor').where('userId', '=', operatorId).execute();
    await trx.deleteFrom('passkey').where('userId', '=', operatorId).execute();
    await trx.updateTable('user').set({ twoFactorEnabled: off }).where('id', '=', operatorId).execute();
    // Every session of theirs too: one waiting for the factor just removed (a password sign-in,
    // maybe not theirs) would otherwise open the console on the password alone.
    await trx.deleteFrom('session').where('userId', '=', operatorId).execute();
  });
}

/** A JSON answer carrying the session cookie better-auth set when it replaced the session. */
export function answerWithCookies<T>(body: T, headers: Headers): Response {
  const response = Response.json(body);
  for (const cookie of headers.getSetCookie()) response.headers.append('set-cookie', cookie);
  return response;
}
