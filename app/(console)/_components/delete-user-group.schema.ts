import * as z from 'zod/mini';
import { tokenTextSchema, userGroupIdTextSchema } from './form-text.schema';

/** The delete form as typed. */
export const deleteUserGroupFormSchema = z.object({
  user_group_id: userGroupIdTextSchema,
  current_token: tokenTextSchema,
});

export type DeleteUserGroupFormValues = z.input<typeof deleteUserGroupFormSchema>;

export const deleteUserGroupFormFields = ['user_group_id', 'current_token'] as const;
