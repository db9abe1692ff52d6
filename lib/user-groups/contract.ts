/**
 * The console's own HTTP contract: what the browser sends to the route handlers under app/api/
 * and what it gets back. Request bodies are the upstream wire requests (validated by the same
 * schemas); answers carry the upstream's group, never the API key.
 */
import * as z from 'zod/mini';
import {
  deleteRequestSchema,
  getOrCreateRequestSchema,
  getOrCreateResponseSchema,
  rotateRequestSchema,
  rotateResponseSchema,
  userGroupIdSchema,
} from '@/lib/user-group-api/contract';

export const getOrCreateBodySchema = getOrCreateRequestSchema;
export const rotateBodySchema = rotateRequestSchema;
export const deleteBodySchema = deleteRequestSchema;

export const getOrCreateResultSchema = z.omit(getOrCreateResponseSchema, { success: true });
export type GetOrCreateResult = z.infer<typeof getOrCreateResultSchema>;

export const rotateResultSchema = z.omit(rotateResponseSchema, { success: true });
export type RotateResult = z.infer<typeof rotateResultSchema>;

export const deleteResultSchema = z.object({ deleted: z.literal(true), user_group_id: z.string() });

/** Show token: the group's id only; the service is asked for nothing else. */
export const showTokenBodySchema = z.object({ user_group_id: userGroupIdSchema });
export type ShowTokenRequest = z.infer<typeof showTokenBodySchema>;

/**
 * The group and its current token, or `gone`: the service no longer had the group, and the one the
 * look created was deleted again at once, so no token comes back (reading never creates).
 */
export const showTokenResultSchema = z.discriminatedUnion('gone', [
  z.object({ gone: z.literal(false), user_group: getOrCreateResultSchema.shape.user_group }),
  z.object({ gone: z.literal(true) }),
]);
export type ShowTokenResult = z.infer<typeof showTokenResultSchema>;

/** The three calls of the User Group Service interface, as the console's routes name them. */
export type UserGroupOperation = 'get-or-create' | 'rotate' | 'delete';
