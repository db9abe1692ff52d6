/**
 * The wire shapes of an operator's open sessions, shared by the account page and
 * /api/account/sessions (and an admin's "end all sessions" on the operators page).
 */
import * as z from 'zod/mini';

const sessionSummarySchema = z.object({
  id: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
  /** "Chrome on Windows", from the user agent; "Unknown browser" when it says nothing known. */
  browser: z.string(),
  /** The client's address as the console saw it (the socket, or a trusted proxy's report). */
  address: z.nullable(z.string()),
  signedInAt: z.string(),
  /** The last step-up (confirming it was them), if any. */
  confirmedAt: z.nullable(z.string()),
  expiresAt: z.string(),
  signInMethod: z.enum(['password', 'passkey', 'sso']),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionListSchema = z.object({ sessions: z.array(sessionSummarySchema) });

/** One session, or every other one (the current session ends by signing out). */
export const endSessionsSchema = z.union(
  [
    z.strictObject({ sessionId: z.string().check(z.minLength(1), z.maxLength(128)) }),
    z.strictObject({ others: z.literal(true) }),
  ],
  { error: 'send either { sessionId } or { others: true }' },
);

export const endedSessionsSchema = z.object({ ended: z.number() });
