import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { WRONG_PROOF_LIMIT } from '@/lib/limits';
import type { ConsoleServer, Operator } from '@/lib/server';
import { writeAudited } from '@/lib/server/frame/writer';
import { endSessions } from '@/lib/sessions/store';
import { countWrongProof } from './step-up';

/**
 * What a signed-in operator types or presents to prove who they are (the password, an authenticator
 * or backup code, a passkey's answer), on every route that asks for one: step-up, a new app, new
 * backup codes, removing the app, changing the password.
 *
 * - Limited per session, never under the keys anonymous sign-ins fill (the email, the client
 *   address) nor per operator: neither a stranger's failed sign-ins for an operator's email nor
 *   another session can lock that operator out of their own step-up during an incident. Each new
 *   session costs a sign-in, which the sign-in limit counts.
 * - One strike count per session, for every proof on every route: WRONG_PROOF_LIMIT wrong ones in
 *   all end the session (on record as `session.end`). Whoever holds a stolen session cannot guess
 *   on for its whole life: they must sign in again, password and second factor.
 */
type ProvingOperator = Pick<Operator, 'id' | 'email' | 'session'>;

export async function limitProof(server: ConsoleServer, operator: ProvingOperator): Promise<void> {
  // Per session only: a key per operator would let one session (a password-only one, say) spend
  // the operator's allowance and lock their own browser out of its step-up.
  const keys = [`proof-session:${operator.session.id}`];
  const verdict = (await server.signInLimiter?.attempt(keys)) ?? { allowed: true };
  if (verdict.allowed) return;
  throw new ConsoleError('rate_limited', `Too many attempts: retry in ${verdict.retryAfterSeconds} s.`, {
    retryAfterSeconds: verdict.retryAfterSeconds,
  });
}

/** A refusal of what the person typed (the console's words for a wrong password, code or passkey). */
function isWrongProof(error: unknown): boolean {
  if (!(error instanceof ConsoleError) || error.code !== 'invalid_request') return false;
  const fields = Object.keys(error.extra.fields ?? {});
  return fields.some((field) => field === 'password' || field === 'code' || field === 'passkey');
}

/**
 * Counts one wrong proof against the session; at the limit the session ends, and the answer says
 * so. Answers how many more wrong ones the session has before that.
 */
export async function strike(
  server: ConsoleServer,
  operator: ProvingOperator,
  requestId: string,
): Promise<number> {
  const { db } = server.database;
  const wrong = await countWrongProof(db, operator.session.id);
  if (wrong < WRONG_PROOF_LIMIT) return WRONG_PROOF_LIMIT - wrong;
  await writeAudited(
    server.auditLog,
    {
      action: 'session.end',
      operator,
      requestId,
      detail: `this session, after ${WRONG_PROOF_LIMIT} wrong passwords, codes or passkeys`,
    },
    () => endSessions(db, operator.id, { sessionId: operator.session.id }),
    {},
  );
  throw new ConsoleError(
    'unauthenticated',
    `Signed out after ${WRONG_PROOF_LIMIT} wrong answers: sign in again to go on.`,
  );
}

/** Runs an action that checks a proof: limited first, and a wrong proof counted before it is answered. */
export async function withProof<T>(
  server: ConsoleServer,
  operator: ProvingOperator,
  requestId: string,
  run: () => Promise<T>,
): Promise<T> {
  await limitProof(server, operator);
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ConsoleError) || !isWrongProof(error)) throw error;
    throw withTriesLeft(error, await strike(server, operator, requestId));
  }
}

/**
 * The refusal as a sentence that says how many tries are left ("That is not your current password.
 * 4 more wrong answers and you are signed out."), where the person reads it: under the field.
 */
function withTriesLeft(error: ConsoleError, left: number): ConsoleError {
  const tries = left === 1 ? 'One more wrong answer' : `${left} more wrong answers`;
  const fields = Object.fromEntries(
    Object.entries(error.extra.fields ?? {}).map(([field, problem]) => [
      field,
      `That ${problem}. ${tries} and you are signed out.`,
    ]),
  );
  return new ConsoleError(error.code, error.message, { ...error.extra, fields }, error.adminMessage);
}
