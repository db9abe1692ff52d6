import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { SignInMethod } from '@/lib/auth/options';
import type { Clock } from '@/lib/clock';
import { processWide } from '@/lib/process-wide';

/**
 * The request id of the request being handled, for code that runs deep inside better-auth (its
 * database hooks) and writes the audit log. Falls back to a fresh id outside a request. One per
 * process: a route's copy of this module sets it, the one console server's better-auth reads it.
 */
const storage = processWide(
  'request-context',
  () =>
    new AsyncLocalStorage<{
      requestId: string;
      replacesSession?: SessionCarry;
      /** An SSO callback's: when the IdP says it authenticated the person (its ID token's auth_time). */
      idpAuthenticatedAt?: string | null;
    }>(),
);

/** What a replaced session keeps of the one it replaces (how it signed in, a second factor proved). */
export interface SessionCarry {
  signInMethod?: SignInMethod;
  /** ISO 8601, or null: the new session has proved no second factor. */
  secondFactorAt?: string | null;
}

/** A replaced session keeps how its predecessor signed in and whether it proved a second factor. */
export function carriedFrom(
  session: {
    signInMethod: SignInMethod;
    secondFactorProved: boolean;
  },
  clock: Pick<Clock, 'now'>,
): SessionCarry {
  return {
    signInMethod: session.signInMethod,
    secondFactorAt: session.secondFactorProved ? new Date(clock.now()).toISOString() : null,
  };
}

export function withRequestId<T>(requestId: string, run: () => T): T {
  return storage.run({ requestId }, run);
}

/**
 * Runs a call in which better-auth swaps the signed-in operator's session for a new one (enrolling
 * a second factor, changing a password): the new session is no sign-in, and the audit log says so
 * through the action that caused it.
 */
export function replacingSession<T>(requestId: string, run: () => T, carry: SessionCarry = {}): T {
  return storage.run({ requestId, replacesSession: carry }, run);
}

/** Inside replacingSession: what the new session carries over; otherwise undefined. */
export function replacedSessionCarry(): SessionCarry | undefined {
  return storage.getStore()?.replacesSession;
}

/**
 * What an SSO callback learns of the IdP's authentication, from the ID token better-auth keeps on
 * the operator's account, for the session it then creates (one request, one store).
 */
export const idpAuthentication = {
  note(at: string | null): void {
    const store = storage.getStore();
    if (store) store.idpAuthenticatedAt = at;
  },
  read(): string | null {
    return storage.getStore()?.idpAuthenticatedAt ?? null;
  },
};

export function currentRequestId(): string {
  return storage.getStore()?.requestId ?? randomUUID();
}
