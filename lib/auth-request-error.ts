/**
 * The error of lib/auth-client.ts, on its own: forms tell refusals apart with it before they have
 * loaded the auth client, which they fetch only when a person submits.
 */
import { CONSOLE_UNREACHABLE_MESSAGE } from '@/lib/console-api/client';

/** A sign-in, sign-out or password change that did not happen. */
export class AuthRequestError extends Error {
  constructor(
    /** The HTTP status of the refusal; null when the console could not be reached. */
    readonly status: number | null,
    /** better-auth's error code: INVALID_EMAIL_OR_PASSWORD, BANNED_USER, INVALID_PASSWORD, … */
    readonly code?: string,
    /** With a 429: how long to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(
      status === null ? CONSOLE_UNREACHABLE_MESSAGE : `The console refused the request (HTTP ${status}).`,
    );
    this.name = 'AuthRequestError';
  }
}
