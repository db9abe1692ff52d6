/**
 * The wire shapes of operator management, shared by the admin page's forms and /api/operators:
 * what the browser sends and, parsed before use, what it gets back.
 */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import { roleSchema } from '@/lib/roles';

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

/** What POST /api/operators answers: the operator added. */
export const createOperatorResultSchema = z.object({ operator: operatorSummarySchema });
export type CreateOperatorResult = z.infer<typeof createOperatorResultSchema>;

/** What PATCH /api/operators/:id answers: the operator as changed (null if it vanished meanwhile). */
export const updateOperatorResultSchema = z.object({ operator: operatorSummarySchema.nullable() });
export type UpdateOperatorResult = z.infer<typeof updateOperatorResultSchema>;

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
