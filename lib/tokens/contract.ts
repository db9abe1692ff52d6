/**
 * "Whose token is this?": what the browser sends (the pasted token, in a POST body only: never in
 * a URL) and what it reads back (groups and times, never a token). Also what makes typed text
 * look like a token, so that search fields send it here instead of into a URL.
 */
import * as z from 'zod/mini';
import { environments } from '@/lib/environments';

const MAX_TOKEN_LENGTH = 1024;

/**
 * Why pasted text cannot be a token, or null: a token (or a group id, which Identify also takes) is
 * one unbroken string, so text with spaces inside is a chat message pasted whole (#43, item 7). It
 * is refused before anything is sent, fingerprinted or put on record, in the browser and the route.
 */
export function notATokenReason(text: string): string | null {
  return /\s/.test(text.trim()) ? NOT_A_TOKEN : null;
}

const NOT_A_TOKEN =
  'is not a token: it has spaces in it. Paste the token alone, without the message around it';

export const identifyTokenSchema = z.object({
  token: z.string().check(
    z.trim(),
    z.minLength(1, { error: 'paste a token' }),
    z.maxLength(MAX_TOKEN_LENGTH, { error: `must be at most ${MAX_TOKEN_LENGTH} characters` }),
    z.refine((value) => notATokenReason(value) === null, { error: NOT_A_TOKEN }),
  ),
});

const tokenEventSchema = z.object({
  at: z.string(),
  by: z.nullable(z.string()),
  action: z.string(),
  jobId: z.nullable(z.string()),
});

export const tokenIdentitySchema = z.object({
  fingerprint: z.string(),
  matches: z.array(
    z.object({
      environment: z.enum(environments),
      userGroupId: z.string(),
      name: z.nullable(z.string()),
      standing: z.enum(['current', 'replaced', 'deleted', 'superseded']),
      issued: z.nullable(tokenEventSchema),
      ended: z.nullable(tokenEventSchema),
      groupDeleted: z.boolean(),
    }),
  ),
  groupsWithThatId: z.array(
    z.object({ environment: z.enum(environments), userGroupId: z.string(), name: z.nullable(z.string()) }),
  ),
});
export type TokenIdentityAnswer = z.infer<typeof tokenIdentitySchema>;

/**
 * Text that is a token rather than a group id or a search: one unbroken run of token characters,
 * at least 32 long, that reads as a secret (hex, or letters mixed with digits) and not as words
 * joined by separators or a UUID (ids that companies choose). A false positive costs a person
 * one more step (the answer offers the group of that id), a false negative puts a token in a URL.
 */
export function looksLikeToken(text: string): boolean {
  const value = text.trim();
  if (value.length < 32 || value.length > MAX_TOKEN_LENGTH) return false;
  if (!/^[A-Za-z0-9+/=_.~-]+$/.test(value)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  if (/^[0-9a-f]+$/i.test(value)) return true;
  const separators = value.match(/[-_.]/g)?.length ?? 0;
  return separators <= 2 && /[0-9]/.test(value) && /[a-z]/i.test(value);
}
