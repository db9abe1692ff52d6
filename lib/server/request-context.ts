import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request id of the request being handled, for code that runs deep inside better-auth (its
 * database hooks) and writes the audit log. Falls back to a fresh id outside a request.
 */
const storage = new AsyncLocalStorage<{ requestId: string; replacesSession?: boolean }>();

export function withRequestId<T>(requestId: string, run: () => T): T {
  return storage.run({ requestId }, run);
}

/**
 * Runs a call in which better-auth swaps the signed-in operator's session for a new one (enrolling
 * a second factor, changing a password): the new session is no sign-in, and the audit log says so
 * through the action that caused it.
 */
export function replacingSession<T>(requestId: string, run: () => T): T {
  return storage.run({ requestId, replacesSession: true }, run);
}

export function isReplacingSession(): boolean {
  return storage.getStore()?.replacesSession === true;
}

export function currentRequestId(): string {
  return storage.getStore()?.requestId ?? randomUUID();
}
