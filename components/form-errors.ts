/**
 * What a failed console call means for a form: per-field messages and one message for the form.
 * Pure, so the mapping from a ConsoleApiError to what a person sees is tested without a browser.
 */
import { ConsoleApiError } from '@/lib/console-api/client';

export type FieldErrorMessage<Name extends string> = { name: Name; message: string };

/**
 * The field messages of an error that belong to one of the form's fields. A nested key such as
 * `mapping.sales` or `mapping[0]` belongs to its top-level field (`mapping`); the first message wins.
 */
export function fieldErrorsFor<Name extends string>(
  fields: Readonly<Record<string, string>> | undefined,
  names: readonly Name[],
): FieldErrorMessage<Name>[] {
  if (!fields) return [];
  const found = new Map<Name, string>();
  for (const [key, message] of Object.entries(fields)) {
    const top = key.split(/[.[]/, 1)[0] ?? key;
    const name = names.find((candidate) => candidate === top);
    if (name && !found.has(name)) {
      const nested = key === top ? '' : `${key.slice(top.length).replace(/^\./, '')}: `;
      found.set(name, `${nested}${message}`);
    }
  }
  return [...found].map(([name, message]) => ({ name, message }));
}

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong. Your input is kept: try again.';

/** The message for the form-level alert: the console's own words, or a calm fallback. */
export function formErrorMessage(error: unknown): string {
  return error instanceof ConsoleApiError ? error.message : UNEXPECTED_ERROR_MESSAGE;
}

/** The per-field messages of any error (none unless it is a ConsoleApiError). */
export function serverFieldErrors<Name extends string>(error: unknown, names: readonly Name[]) {
  return fieldErrorsFor(error instanceof ConsoleApiError ? error.fields : undefined, names);
}
