/**
 * Field schemas the console's forms share: text a person types, checked with the wire contract's
 * limits, in messages written for the field they sit under.
 */
import * as z from 'zod/mini';
import { parseJsonText } from '@/lib/json-text';
import { USER_GROUP_ID_MAX } from '@/lib/user-group-api/contract';
import { BODY_FIELD, fieldErrorKey } from '@/lib/validation/field-errors';

const TOKEN_MAX = 1024;

function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** A user group ID as typed. Spaces at either end are refused: they would name another group. */
export const userGroupIdTextSchema = z.string().check(
  z.minLength(1, { error: 'Enter a user group ID.' }),
  z.maxLength(USER_GROUP_ID_MAX, { error: `Use at most ${USER_GROUP_ID_MAX} characters.` }),
  z.refine((id) => id === id.trim(), { error: 'Remove the spaces at the start or end.' }),
);

/** A token as pasted; surrounding spaces are a paste accident and are trimmed when sent. */
export const tokenTextSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Paste the current token.' }),
    z.maxLength(TOKEN_MAX, { error: `A token has at most ${TOKEN_MAX} characters.` }),
  );

/** What is wrong with JSON text meant for `shape`; undefined when it is blank or fine. */
export function jsonTextProblem(text: string, shape: z.core.$ZodType): string | undefined {
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
