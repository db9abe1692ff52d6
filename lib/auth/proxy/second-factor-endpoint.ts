import 'server-only';
import { failureGateOf } from '@/lib/auth/sign-in-limiter';
import { ConsoleError } from '@/lib/console-error';
import { operatorFromHeaders } from '@/lib/server';
import { claimCode, releaseCode } from '@/lib/two-factor/used-codes';
import { authRefusal, inConsoleWords } from './auth-answers';
import { type AuthCall, signInStep } from './auth-call';
import { errorCode } from './auth-outcomes';
import { limitAttempt } from './sign-in-limits';
import { challengedOperator } from './who-signs-in';

/** The second step of a sign-in: an authenticator code or a backup code, for the challenge cookie's operator. */
export async function signInSecondStep(call: AuthCall): Promise<Response> {
  const { server, request, path, requestId, client } = call;
  const { database, config } = server;
  // The second step is for someone signing in, not signed in: a signed-in operator's code here
  // would turn on a pending enrolment behind the account page's back.
  if (await operatorFromHeaders(server, request.headers))
    throw new ConsoleError('conflict', 'You are signed in already.');
  const challenged = await challengedOperator(request, database, config.secureCookies);
  await limitAttempt(call, 'second-factor', challenged?.email ?? null);

  // An authenticator code signs in once: claimed before it is checked, given back if it fails.
  const totp = path.endsWith('/verify-totp') && challenged !== null;
  const code = typeof call.body.json?.code === 'string' ? call.body.json.code : '';
  if (totp && !(await claimCode(database.db, challenged.id, code, server.clock))) {
    await call.record.outcome({
      action: 'sign-in',
      operator: challenged,
      outcome: 'code_reused',
      requestId,
      detail: 'an authenticator code',
    });
    throw authRefusal('second-factor', 'INVALID_CODE', 401, requestId);
  }
  const response = await signInStep(call);
  if (totp && !response.ok) await releaseCode(database.db, challenged.id, code);

  // A right code is a sign-in, recorded where the session is created; a wrong one is recorded here.
  // Without a challenge nobody signed in to cause it: on record once per client and window.
  if (
    response.status >= 400 &&
    (challenged !== null ||
      (await failureGateOf(server.signInLimiter).first(`second-factor:${client ?? 'unknown'}`)))
  ) {
    await call.record.outcome({
      action: 'sign-in',
      operator: challenged,
      outcome: await errorCode(response),
      requestId,
      detail: path.endsWith('totp') ? 'an authenticator code' : 'a backup code',
    });
  }
  return inConsoleWords('second-factor', response, requestId);
}
