import type { z } from 'zod';

/** The field error key of the request body itself, when no field is to blame. */
export const BODY_FIELD = '_';

/**
 * The one way a zod issue's path becomes a field error key: `mapping.schema_1`, or `_` for the body
 * itself. Route handlers send these keys in `fields`; forms map them back with fieldErrorsFor.
 */
export function fieldErrorKey(path: readonly PropertyKey[]): string {
  return path.length > 0 ? path.map(String).join('.') : BODY_FIELD;
}

/** One message per field path (`mapping.schema_1`), the first zod reports; `_` for the body itself. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    fields[fieldErrorKey(issue.path)] ??= issue.message;
  }
  return fields;
}

/** "user_group_id: must not be empty; name: …" for a one-line message. */
export function describeFieldErrors(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([path, message]) => (path === BODY_FIELD ? message : `${path}: ${message}`))
    .join('; ');
}

export type FieldErrorMessage<Name extends string> = { name: Name; message: string };

/**
 * The field errors that belong to one of a form's fields. A nested key such as `mapping.sales` or
 * `mapping[0]` belongs to its top-level field (`mapping`) and keeps the rest as a prefix; the first
 * message of a field wins; keys of other fields (and `_`) are left out.
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
