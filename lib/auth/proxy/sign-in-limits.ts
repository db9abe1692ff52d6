import 'server-only';
import { failureGateOf, signInKeys } from '@/lib/auth/sign-in-limiter';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleServer } from '@/lib/server';
import type { AuthCall, EndpointKind } from './auth-call';
import { knownOperator } from './who-signs-in';

/** Counts a sign-in, SSO start or password change against the limiter; over the limit, 429. */
export async function limitAttempt(
  { server: { database, signInLimiter, metrics }, record, client, requestId }: AuthCall,
  kind: EndpointKind,
  attemptedEmail: string | null,
): Promise<void> {
  const verdict = (await signInLimiter?.attempt(signInKeys(attemptedEmail, client))) ?? { allowed: true };
  if (verdict.allowed) return;
  metrics.rateLimitRefusals.inc({ limit: 'sign-in' });
  // One entry per window and key, not one per refused guess: a flood cannot flood the log.
  if (kind === 'sign-in' && verdict.firstRefusal) {
    await record.outcome({
      action: 'sign-in',
      operator: await knownOperator(database, attemptedEmail),
      outcome: 'rate_limited',
      requestId,
      detail: 'further attempts are refused without an entry until the limit resets',
    });
  }
  throw rateLimited(verdict.retryAfterSeconds);
}

/**
 * Each passkey challenge is a row for five minutes: counted per client, apart from sign-ins (a
 * sign-in with a passkey asks for one challenge, then counts its answer as a sign-in attempt).
 */
export async function limitPasskeyOptions(
  { signInLimiter, metrics }: ConsoleServer,
  client: string | null,
): Promise<void> {
  const key = `passkey-options:${client ?? 'unknown'}`;
  const verdict = (await signInLimiter?.attempt([key])) ?? { allowed: true };
  if (verdict.allowed) return;
  metrics.rateLimitRefusals.inc({ limit: 'sign-in' });
  throw rateLimited(verdict.retryAfterSeconds);
}

/**
 * Counts an SSO callback per client, apart from password sign-ins; over the limit, 429. Its entry
 * shares the gate of failed callbacks: one unauthenticated entry per client and window in all.
 */
export async function limitSsoCallback(
  { server: { signInLimiter, metrics }, record, requestId }: AuthCall,
  callbackKey: string,
): Promise<void> {
  const verdict = (await signInLimiter?.attempt([callbackKey])) ?? { allowed: true };
  if (verdict.allowed) return;
  metrics.rateLimitRefusals.inc({ limit: 'sso-callback' });
  if (await failureGateOf(signInLimiter).first(callbackKey)) {
    await record.outcome({
      action: 'sign-in',
      operator: null,
      outcome: 'rate_limited',
      requestId,
      detail: 'single sign-on; further callbacks are refused without an entry until the limit resets',
    });
  }
  throw rateLimited(verdict.retryAfterSeconds);
}

function rateLimited(retryAfterSeconds: number): ConsoleError {
  return new ConsoleError('rate_limited', `Too many sign-in attempts: retry in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}
