import * as z from 'zod/mini';
import { mappingSchema, NAME_MAX, propertiesSchema } from '@/lib/user-group-api/contract';
import { newUserGroupIdTextSchema } from './form-text.schema';
import { jsonTextSchema } from './json-text.schema';

/** The get-or-create form as typed: every field is text; blank optional fields are omitted. */
export const getOrCreateFormSchema = z.object({
  name: z.string().check(z.maxLength(NAME_MAX, { error: `Use at most ${NAME_MAX} characters.` })),
  user_group_id: newUserGroupIdTextSchema,
  mapping: jsonTextSchema(mappingSchema),
  properties: jsonTextSchema(propertiesSchema),
});

export type GetOrCreateFormValues = z.infer<typeof getOrCreateFormSchema>;

export const getOrCreateFormFields = ['name', 'user_group_id', 'mapping', 'properties'] as const;

export const emptyGetOrCreateForm: GetOrCreateFormValues = {
  name: '',
  user_group_id: '',
  mapping: '',
  properties: '',
};
