/**
 * How the console answers a failure: the error body of every console route. Its own module, because
 * every page's route client reads it (lib/browser-client/console-client.ts): with the user groups'
 * contract it brought the User Group Service's schemas to pages that call none of its routes.
 */
import * as z from 'zod/mini';

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
  'read_too_long', // a search or page ran past the read time limit: narrow it
  'database_unavailable', // the console's database did not answer a read: try again
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
