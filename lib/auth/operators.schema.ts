/**
 * The wire shapes of operator management, shared by the admin page's forms and /api/operators.
 */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-policy';
import { roleSchema } from './roles';

export const createOperatorSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'must be an email address' }).max(254, { error: 'is too long' })),
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(120, { error: 'is too long' }),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
    .max(MAX_PASSWORD_LENGTH, { error: `must be at most ${MAX_PASSWORD_LENGTH} characters` }),
  role: roleSchema,
});
export type CreateOperatorRequest = z.infer<typeof createOperatorSchema>;

export const updateOperatorSchema = z.union(
  [z.object({ role: roleSchema }).strict(), z.object({ disabled: z.boolean() }).strict()],
  { error: 'send either { role } or { disabled }' },
);
export type UpdateOperatorRequest = z.infer<typeof updateOperatorSchema>;

export const operatorSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema.nullable(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type OperatorSummary = z.infer<typeof operatorSummarySchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, { error: 'must not be empty' }),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
      .max(MAX_PASSWORD_LENGTH, { error: `must be at most ${MAX_PASSWORD_LENGTH} characters` }),
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    error: 'does not match the new password',
    path: ['confirmPassword'],
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
