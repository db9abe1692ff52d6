/**
 * The change-password form as typed (the change itself goes through better-auth's client). Beside the
 * form, apart from the operators' contract: the account page loads no operator management schemas.
 */
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';

const password = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` }),
    z.maxLength(MAX_PASSWORD_LENGTH, { error: `must be at most ${MAX_PASSWORD_LENGTH} characters` }),
  );

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, { error: 'must not be empty' })),
    newPassword: password,
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      error: 'does not match the new password',
      path: ['confirmPassword'],
    }),
  );
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
