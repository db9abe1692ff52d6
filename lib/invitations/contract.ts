/**
 * The wire shapes of accepting an invitation (the public /invitation page and /api/invitation):
 * the link's secret travels in POST bodies only, never in a URL.
 */
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import { roleSchema } from '@/lib/roles';

const secret = z
  .string()
  .check(
    z.minLength(1, { error: 'is missing: open the link you were given' }),
    z.maxLength(200, { error: 'is not an invitation' }),
  );

export const invitationLookupSchema = z.strictObject({ secret });

/** Whom a working link lets in, and until when. */
export const invitationDetailsSchema = z.object({
  email: z.string(),
  role: z.nullable(roleSchema),
  expiresAt: z.string(),
});
export type InvitationDetails = z.infer<typeof invitationDetailsSchema>;

const password = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` }),
    z.maxLength(MAX_PASSWORD_LENGTH, { error: `must be at most ${MAX_PASSWORD_LENGTH} characters` }),
  );
const passwordsMatch = () =>
  z.refine<{ password: string; confirmPassword: string }>(
    (values) => values.password === values.confirmPassword,
    {
      error: 'does not match the password',
      path: ['confirmPassword'],
    },
  );

/** The password form of the page; the request adds the secret. */
export const choosePasswordSchema = z
  .object({ password, confirmPassword: z.string() })
  .check(passwordsMatch());
export type ChoosePasswordValues = z.infer<typeof choosePasswordSchema>;

export const acceptInvitationSchema = z
  .strictObject({ secret, password, confirmPassword: z.string() })
  .check(passwordsMatch());

/** Signed in (the session's cookie is set): who. */
export const acceptedInvitationSchema = z.object({ email: z.string() });
