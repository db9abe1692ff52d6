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

/**
 * Every failure a person can act on, by cause. The message is written for the person at the screen;
 * `fields` maps a request field to its problem; `retryAfterSeconds` comes with rate_limited.
 */
const consoleErrorCodeSchema = z.enum([
  'invalid_request', // the console refused the input (field messages)
  'body_too_large', // over 1 MiB
  'unsupported_media_type', // not JSON
  'upstream_invalid_request', // the service refused the input (its message, field messages)
  'api_key_refused', // the service refused the environment's API key
  'environment_not_configured', // the console has no API key for that environment
  'not_found', // no user group for that token / id
  'conflict', // the thing is not in a state that allows this (a finished job cannot be paused)
  'rate_limited',
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_malformed', // the service answered something that is not the interface
  'upstream_error', // the service failed (5xx or success: 0 without a known cause)
  'unauthenticated', // no console session
  'forbidden', // the operator's role may not do this
  'step_up_required', // a Customer action needs an authentication within CONSOLE_STEP_UP_MINUTES
  'second_factor_required', // the operator's role must have a second factor, and they have none yet
  'cross_site_request',
  'audit_unavailable', // the audit log could not be written, so the action did not happen
  'internal',
]);
export type ConsoleErrorCode = z.infer<typeof consoleErrorCodeSchema>;

export const consoleErrorBodySchema = z.object({
  error: z.object({
    code: consoleErrorCodeSchema,
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
    retryAfterSeconds: z.optional(z.number()),
    requestId: z.optional(z.string()),
  }),
});
export type ConsoleErrorBody = z.infer<typeof consoleErrorBodySchema>;
