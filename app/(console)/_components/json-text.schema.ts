/**
 * JSON text a person types into a form field (mapping, properties), checked with the wire schema of
 * that field. The JSON parser that says where a syntax error is (lib/json-text.ts, jsonc-parser) is
 * fetched when a JSON field first holds text, not with the page: blank fields, the common case, need
 * none. The check is asynchronous for that (the forms' resolver parses asynchronously).
 */
import * as z from 'zod/mini';
import type { JsonTextResult } from '@/lib/json-text';
import { BODY_FIELD, fieldErrorKey } from '@/lib/validation/field-errors';

let jsonParser: Promise<typeof import('@/lib/json-text')> | undefined;

/** The JSON parser, fetched once, on first use. */
export const loadJsonParser = () => {
  jsonParser ??= import('@/lib/json-text');
  return jsonParser;
};

function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** What is wrong with JSON text meant for `shape`; undefined when it is blank or fine. */
function jsonTextProblem(parsed: JsonTextResult, shape: z.core.$ZodType): string | undefined {
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
    z.superRefine(async (text, ctx) => {
      if (text.trim() === '') return;
      const { parseJsonText } = await loadJsonParser();
      const problem = jsonTextProblem(parseJsonText(text), shape);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}
