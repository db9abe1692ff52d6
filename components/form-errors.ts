/**
 * What a failed console call means for a form: per-field messages and one message for the form.
 * Pure, so the mapping from a ConsoleApiError to what a person sees is tested without a browser.
 */
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { failureMessage } from '@/lib/browser-client/failure-message';
import { fieldErrorsFor } from '@/lib/validation/field-errors';

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong. Your input is kept: try again.';

/** The message for the form-level alert: the console's own words, or a calm fallback. */
export function formErrorMessage(error: unknown, otherwise = UNEXPECTED_ERROR_MESSAGE): string {
  // A route's own rate limit names what it counts and the delay: its words stand.
  return failureMessage(error, { otherwise, rateLimited: (failure) => failure.message });
}

/** The per-field messages of any error (none unless it is a ConsoleApiError). */
export function serverFieldErrors<Name extends string>(error: unknown, names: readonly Name[]) {
  return fieldErrorsFor(error instanceof ConsoleApiError ? error.fields : undefined, names);
}
