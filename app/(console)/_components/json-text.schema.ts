/**
 * JSON text a person types into a form field (mapping, properties), checked with the wire schema of
 * that field. Apart from form-text.schema.ts: only forms with JSON fields load the JSON parser.
 */
import * as z from 'zod/mini';
import { parseJsonText } from '@/lib/json-text';
import { BODY_FIELD, fieldErrorKey } from '@/lib/validation/field-errors';

function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** What is wrong with JSON text meant for `shape`; undefined when it is blank or fine. */
function jsonTextProblem(text: string, shape: z.core.$ZodType): string | undefined {
  const parsed = parseJsonText(text);
  if (parsed.kind === 'empty') return undefined;
  if (parsed.kind === 'invalid') return sentence(parsed.message);
  const checked = z.safeParse(shape, parsed.value);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0];
  if (!issue) return 'Not accepted.';
  const key = fieldErrorKey(issue.path);
  return key === BODY_FIELD ? sentence(issue.message) : `“${key}”: ${issue.message}`;
}

/** Optional JSON text: blank, or JSON whose value passes `shape` (the wire schema of the field). */
export function jsonTextSchema(shape: z.core.$ZodType) {
  return z.string().check(
    z.superRefine((text, ctx) => {
      const problem = jsonTextProblem(text, shape);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}
