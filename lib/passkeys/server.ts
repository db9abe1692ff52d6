import 'server-only';
import { isAPIError } from 'better-auth/api';
import { ConsoleError } from '@/lib/console-error';
import type { AddPasskey, PasskeySummary } from '@/lib/passkeys/contract';
import { passkeyName } from '@/lib/passkeys/store';
import type { ConsoleServer, Operator } from '@/lib/server';
import { mustKeepSecondFactor } from '@/lib/two-factor/step-up';

/**
 * Adding a passkey through better-auth's passkey plugin, called on the server with the request's
 * cookies (the browser never calls those endpoints itself): the options and their challenge
 * cookie, then the authenticator's answer. Refusals reach people in the console's words.
 */

const passkeyFailed = (message: string) =>
  new ConsoleError('invalid_request', `Check the input: passkey ${message}.`, {
    fields: { passkey: message },
  });

function inConsoleWords(error: unknown): unknown {
  if (!isAPIError(error)) return error;
  const code = (error.body as { code?: string } | undefined)?.code;
  switch (code) {
    case 'CHALLENGE_NOT_FOUND':
      return passkeyFailed('was not asked for, or took too long: try again');
    case 'USER_NOT_VERIFIED':
      return passkeyFailed('must ask for your PIN, fingerprint or face');
    case 'FAILED_TO_VERIFY_REGISTRATION':
    case 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY':
      return passkeyFailed('could not be checked: try again');
    default:
      return error;
  }
}

/**
 * Who may add a passkey: an operator with a console password (an SSO operator's way in is their
 * IdP, which a passkey would go around). The recent authentication it also needs (a new way in is
 * as sensitive as a production token) is declared on its routes' definitions (`own-account`), and
 * the frame's step-up stage asks for it.
 */
async function requireMayAddPasskey(server: ConsoleServer, operator: Operator): Promise<void> {
  const password = await server.database.db
    .selectFrom('account')
    .select('id')
    .where('userId', '=', operator.id)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  if (!password)
    throw new ConsoleError(
      'conflict',
      'You sign in through single sign-on: passkeys are for operators with a console password.',
    );
}

/** Step one: the options for navigator.credentials.create, and the challenge's cookie. */
export async function startPasskeyRegistration(
  server: ConsoleServer,
  headers: Headers,
  operator: Operator,
): Promise<{ options: Record<string, unknown>; headers: Headers }> {
  await requireMayAddPasskey(server, operator);
  try {
    const answer = await server.auth.api.generatePasskeyRegistrationOptions({ headers, returnHeaders: true });
    return { options: answer.response as unknown as Record<string, unknown>, headers: answer.headers };
  } catch (error) {
    throw inConsoleWords(error);
  }
}

/** Step two: the authenticator's answer to that challenge (taken once); the passkey is kept. */
export async function finishPasskeyRegistration(
  server: ConsoleServer,
  headers: Headers,
  operator: Operator,
  body: AddPasskey,
): Promise<PasskeySummary> {
  await requireMayAddPasskey(server, operator);
  try {
    const passkey = await server.auth.api.verifyPasskeyRegistration({
      body: { response: body.response, name: body.name },
      headers,
    });
    return {
      id: passkey.id,
      name: passkey.name?.trim() || body.name,
      createdAt: passkey.createdAt ? new Date(passkey.createdAt).toISOString() : null,
    };
  } catch (error) {
    throw inConsoleWords(error);
  }
}

/**
 * The name of the operator's passkey the URL names, read before its removal is on record: 404 when
 * they have none such, 409 when the policy (CONSOLE_REQUIRE_2FA) needs it as their last factor.
 */
export async function removablePasskey({
  server,
  operator,
  params,
}: {
  server: ConsoleServer;
  operator: Operator;
  params: { id: string };
}): Promise<string> {
  const name = await passkeyName(server.database.db, operator.id, params.id);
  if (name === null) throw new ConsoleError('not_found', 'You have no such passkey.');
  if (mustKeepSecondFactor(operator, server.config) && !operator.twoFactorEnabled && operator.passkeys <= 1)
    throw new ConsoleError(
      'conflict',
      `Your role (${operator.role}) must have a second factor: add another passkey or set up an authenticator app first.`,
    );
  return name;
}
