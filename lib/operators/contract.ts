/**
 * The wire shapes of operator management, shared by the admin page's forms and /api/operators:
 * what the browser sends and, parsed before use, what it gets back.
 */
import * as z from 'zod/mini';
import { roleSchema } from '@/lib/roles';

/** The ways in an audit asks about, as the operators list and its CSV say them. */
const signInWays = ['password', 'SSO', 'password and SSO', 'none yet'] as const;

export const createOperatorSchema = z.object({
  email: z.pipe(
    z.string().check(z.trim(), z.toLowerCase()),
    z.email({ error: 'must be an email address' }).check(z.maxLength(254, { error: 'is too long' })),
  ),
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'must not be empty' }),
      z.maxLength(120, { error: 'is too long' }),
    ),
  role: roleSchema,
});
export type CreateOperatorRequest = z.infer<typeof createOperatorSchema>;

export const updateOperatorSchema = z.union(
  [z.strictObject({ role: roleSchema }), z.strictObject({ disabled: z.boolean() })],
  { error: 'send either { role } or { disabled }' },
);

export const operatorSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.nullable(roleSchema),
  disabled: z.boolean(),
  /** A second factor is set up, an authenticator app or a passkey (an admin may reset them). */
  twoFactorEnabled: z.boolean(),
  /** Which: what an audit of the console asks of each operator. */
  secondFactor: z.enum(['authenticator app and passkey', 'authenticator app', 'passkey', 'none']),
  /** How they sign in (better-auth's accounts): a console password, the company's SSO, both, or none yet. */
  signsInWith: z.enum(signInWays),
  /**
   * Provisioned by the company's directory through SCIM (lib/scim): their role and whether they are
   * disabled change there, and the console refuses to change them.
   */
  managedByDirectory: z.boolean(),
  /** Their last whole sign-in, or null when they have not signed in since it was first kept. */
  lastSignInAt: z.nullable(z.string()),
  createdAt: z.string(),
  /**
   * Added but not yet in: when their invitation link expires (or expired). Null once they have set
   * a password (or signed in through SSO).
   */
  invitationExpiresAt: z.nullable(z.string()),
});
export type OperatorSummary = z.infer<typeof operatorSummarySchema>;

/**
 * A one-time invitation link, shown to the admin once: the secret is in the fragment (`#…`), which
 * browsers do not send to any server, so it stays out of requests' URLs and logs.
 */
const invitationMailSchema = z.union([
  z.object({ status: z.literal('sent') }),
  /** Not delivered: why, in the console's words (no mail server text, no credentials). */
  z.object({ status: z.literal('failed'), reason: z.string() }),
]);
export type InvitationMail = z.infer<typeof invitationMailSchema>;

/** The link, until when it works, and what became of its email (null: no SMTP_URL, none is sent). */
export const invitationLinkSchema = z.object({
  link: z.string(),
  expiresAt: z.string(),
  mail: z.nullable(invitationMailSchema),
});
export type InvitationLink = z.infer<typeof invitationLinkSchema>;

/** What POST /api/operators answers: the operator added, and the link that lets them in. */
export const createOperatorResultSchema = z.object({
  operator: operatorSummarySchema,
  invitation: invitationLinkSchema,
});

/** What PATCH /api/operators/:id answers: the operator as changed (null if it vanished meanwhile). */
export const updateOperatorResultSchema = z.object({ operator: z.nullable(operatorSummarySchema) });
