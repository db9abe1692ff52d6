import 'server-only';
import { failureGateOf } from '@/lib/auth/sign-in-limiter';
import { passkeyOwner } from '@/lib/passkeys/store';
import { authRefusal, inConsoleWords } from './auth-answers';
import { credentialIdOf } from './auth-body';
import { type AuthCall, forwardToBetterAuth, signInStep } from './auth-call';
import { errorCode, refuseUnrecordedSignIn } from './auth-outcomes';
import { limitAttempt, limitPasskeyOptions } from './sign-in-limits';

/** A passkey sign-in's challenge (kept under a random id in a signed cookie). */
export async function passkeyChallenge(call: AuthCall): Promise<Response> {
  await limitPasskeyOptions(call.server, call.client);
  return inConsoleWords('passkey-options', await forwardToBetterAuth(call), call.requestId);
}

/** A passkey sign-in's second half: the authenticator's answer to the challenge. */
export async function signInWithPasskey(call: AuthCall): Promise<Response> {
  const { server, requestId, client } = call;
  // A passkey's answer names its credential: whose it is (if anyone's) is the limiter's email key.
  const passkeyHolder = await passkeyOwner(server.database.db, credentialIdOf(call.body.json));
  await limitAttempt(call, 'passkey-sign-in', passkeyHolder?.email ?? null);
  const response = await signInStep(call);
  if (response.status < 400) return inConsoleWords('passkey-sign-in', response, requestId);

  const outcome = await errorCode(response);
  server.metrics.signInFailures.inc({ method: 'passkey', reason: outcome });
  refuseUnrecordedSignIn(server, outcome, requestId);
  // An answer naming no operator's passkey: nobody signed in to cause it, once per client and window.
  if (
    passkeyHolder !== null ||
    (await failureGateOf(server.signInLimiter).first(`passkey:${client ?? 'unknown'}`))
  )
    await call.record.outcome({
      action: 'sign-in',
      operator: passkeyHolder,
      outcome,
      requestId,
      detail: 'a passkey',
    });
  // The console's own words; a disabled operator's passkey reads as any refused one.
  throw authRefusal('passkey-sign-in', 'PASSKEY_REFUSED', 401, requestId);
}
