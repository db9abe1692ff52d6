/**
 * The error of ./auth-client.ts, on its own: forms tell refusals apart with it before they have
 * loaded the auth client, which they fetch only when a person submits.
 */
import { CONSOLE_UNREACHABLE_MESSAGE } from '@/lib/browser-client/console-client';
import type { ConsoleErrorBody, ConsoleErrorCode } from '@/lib/console-api/contract';

/** A sign-in, sign-out or password change that did not happen. */
export class AuthRequestError extends Error {
  /** The console's error code: unauthenticated, rate_limited, invalid_request, … */
  readonly code?: ConsoleErrorCode;
  /** With rate_limited: how long to wait. */
  readonly retryAfterSeconds?: number;
  /** The field each problem is about (currentPassword, newPassword, email). */
  readonly fields?: Record<string, string>;

  constructor(
    /** The HTTP status of the refusal; null when the console could not be reached. */
    readonly status: number | null,
    /** The console's answer, when it gave one: its message is in the product's words. */
    refusal?: Pick<ConsoleErrorBody['error'], 'code' | 'message' | 'retryAfterSeconds' | 'fields'>,
  ) {
    super(
      status === null
        ? CONSOLE_UNREACHABLE_MESSAGE
        : (refusal?.message ?? `The console refused the request (HTTP ${status}).`),
    );
    this.name = 'AuthRequestError';
    this.code = refusal?.code;
    this.retryAfterSeconds = refusal?.retryAfterSeconds;
    this.fields = refusal?.fields;
  }

  /** Whether the console said why, in its own words (`message`). */
  get explained(): boolean {
    return this.code !== undefined;
  }
}
