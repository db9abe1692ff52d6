import type { z } from 'zod';

/** One message per field path (`mapping.schema_1`), the first zod reports; `_` for the body itself. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fields[path] ??= issue.message;
  }
  return fields;
}

/** "user_group_id: must not be empty; name: …" for a one-line message. */
export function describeFieldErrors(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([path, message]) => (path === '_' ? message : `${path}: ${message}`))
    .join('; ');
}
