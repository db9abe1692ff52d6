/**
 * Field schemas the console's forms share: text a person types, checked with the wire contract's
 * limits, in messages written for the field they sit under.
 */
import * as z from 'zod/mini';
import { looksLikeToken } from '@/lib/tokens/contract';
import { USER_GROUP_ID_MAX } from '@/lib/user-group-api/contract';

const TOKEN_MAX = 1024;

/** A user group ID as typed. Spaces at either end are refused: they would name another group. */
export const userGroupIdTextSchema = z.string().check(
  z.minLength(1, { error: 'Enter a user group ID.' }),
  z.maxLength(USER_GROUP_ID_MAX, { error: `Use at most ${USER_GROUP_ID_MAX} characters.` }),
  z.refine((id) => id === id.trim(), { error: 'Remove the spaces at the start or end.' }),
);

/**
 * The ID of a group to create. A token pasted here by mistake would become a group's ID, and so
 * part of its page's address, the directory and the audit log's links for good: refused, with the
 * way to what the person likely wanted. (A group whose ID looks like a token can still be made by
 * a bulk job's CSV.)
 */
export const newUserGroupIdTextSchema = userGroupIdTextSchema.check(
  z.refine((id) => !looksLikeToken(id), {
    error: 'This looks like a token, not a user group ID: to find its group, use Paste a token.',
  }),
);

/** A token as pasted; surrounding spaces are a paste accident and are trimmed when sent. */
export const tokenTextSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Paste the current token.' }),
    z.maxLength(TOKEN_MAX, { error: `A token has at most ${TOKEN_MAX} characters.` }),
  );
