import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request id of the request being handled, for code that runs deep inside better-auth (its
 * database hooks) and writes the audit log. Falls back to a fresh id outside a request.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(requestId: string, run: () => T): T {
  return storage.run({ requestId }, run);
}

export function currentRequestId(): string {
  return storage.getStore()?.requestId ?? randomUUID();
}
