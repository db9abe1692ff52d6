import 'server-only';
import { type Operator, operatorFromHeaders } from '@/lib/server';
import { carriedFrom, replacingSession } from '@/lib/server/request-context';
import { limitProof, strike } from '@/lib/two-factor/proofs';
import { secondFactorDue, secondFactorRequired } from '@/lib/two-factor/step-up';
import { inConsoleWords } from './auth-answers';
import { emailOf } from './auth-body';
import { type AuthCall, askBetterAuth, forwardToBetterAuth, signInStep } from './auth-call';
import { errorCode, refuseUnrecordedSignIn } from './auth-outcomes';
import { limitAttempt } from './sign-in-limits';
import { knownOperator } from './who-signs-in';

/**
 * A sign-in with email and password. Successful ones are recorded where better-auth creates the
 * session (lib/server/frame/sign-in-record.ts); a refused one is recorded here.
 */
export async function signInWithPassword(call: AuthCall): Promise<Response> {
  const { server, requestId } = call;
  const attemptedEmail = emailOf(call.body.json);
  await limitAttempt(call, 'sign-in', attemptedEmail);
  const response = await signInStep(call);
  if (response.status >= 400) {
    const outcome = await errorCode(response);
    // better-auth's own code (or http_<status>): a bounded set, never what the person typed.
    server.metrics.signInFailures.inc({ method: 'password', reason: outcome });
    refuseUnrecordedSignIn(server, outcome, requestId);
    await call.record.outcome({
      action: 'sign-in',
      operator: await knownOperator(server.database, attemptedEmail),
      outcome,
      requestId,
      detail: 'email and password',
    });
    // A disabled operator's right password reads as a wrong one (lib/server/auth-answers.ts); the
    // log keeps the real outcome.
  }
  // Only the console's words reach a person, and no session token reaches page scripts.
  return inConsoleWords('sign-in', response, requestId);
}

export async function signOut(call: AuthCall): Promise<Response> {
  const before = await operatorFromHeaders(call.server, call.request.headers);
  const response = before
    ? (await onRecord(call, 'sign-out', before, () => forwardToBetterAuth(call))).response
    : await forwardToBetterAuth(call);
  return inConsoleWords('sign-out', response, call.requestId);
}

export async function changePassword(call: AuthCall): Promise<Response> {
  const { server, requestId } = call;
  const before = await operatorFromHeaders(server, call.request.headers);
  if (!before) return inConsoleWords('change-password', await forwardToBetterAuth(call), requestId);
  // Like every route: a session still to confirm its second factor (a password alone) only confirms.
  const due = secondFactorDue(before, server.config);
  if (due) throw secondFactorRequired(due);
  await limitProof(server, before);
  // A password change replaces the session: the new one is no sign-in (its entry says why).
  // It keeps how the session signed in and the second factor it proved.
  const { response, outcome } = await onRecord(call, 'password.change', before, () =>
    signInStep(call, () =>
      replacingSession(requestId, askBetterAuth(call), carriedFrom(before.session, server.clock)),
    ),
  );
  // A wrong current password is a wrong proof like any other: five in all end the session.
  if (outcome === 'invalid_password') await strike(server, before, requestId);
  return inConsoleWords('change-password', response, requestId);
}

/**
 * Signing out and changing a password are changes: on record before they happen, or not done; the
 * entry settled with better-auth's code when it refused.
 */
async function onRecord(
  { record, requestId }: AuthCall,
  action: 'sign-out' | 'password.change',
  operator: Operator,
  change: () => Promise<Response>,
): Promise<{ response: Response; outcome: string }> {
  let outcome = 'success';
  const response = await record.change({ action, operator, requestId }, change, async (answer) => {
    outcome = answer.ok ? 'success' : await errorCode(answer);
    return outcome;
  });
  return { response, outcome };
}
