import 'server-only';
import { failureGateOf, ssoCallbackKey } from '@/lib/auth/sign-in-limiter';
import { inConsoleWords } from './auth-answers';
import { type AuthCall, forwardToBetterAuth, signInStep } from './auth-call';
import { notRecorded, ssoError } from './auth-outcomes';
import { limitAttempt, limitSsoCallback } from './sign-in-limits';

/** The start of single sign-on: better-auth's redirect to the IdP. */
export async function startSso(call: AuthCall): Promise<Response> {
  await limitAttempt(call, 'sso-start', null);
  return inConsoleWords('sso-start', await forwardToBetterAuth(call), call.requestId);
}

/**
 * The IdP's answer, by redirect or form_post: back to the console, or to the sign-in page with the
 * IdP's or better-auth's `?error=`, which the page never shows as such
 * (app/sign-in/_components/sign-in.schema.ts).
 */
export async function finishSso(call: AuthCall): Promise<Response> {
  const { server, requestId } = call;
  const callbackKey = ssoCallbackKey(call.client);
  await limitSsoCallback(call, callbackKey);
  const response = await signInStep(call);
  const error = ssoError(response);
  // The IdP's `?error=` is anyone's to write: one reason, so a client cannot mint labels.
  if (error) server.metrics.signInFailures.inc({ method: 'sso', reason: 'failed' });
  // Anyone can fail a callback without signing in: on record once per client and window.
  if (error && !notRecorded(error) && (await failureGateOf(server.signInLimiter).first(callbackKey))) {
    await call.record.outcome({
      action: 'sign-in',
      operator: null,
      outcome: error,
      requestId,
      detail: 'single sign-on; further failures from this client are recorded once per window',
    });
  }
  return response;
}
