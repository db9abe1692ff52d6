/**
 * The three operations on /api/user: validate the body with the contract's schema, call the store
 * in the API key's environment, shape the answer exactly as the interface documents it.
 */
import * as z from 'zod/mini';
import {
  type DeleteResponse,
  deleteRequestSchema,
  type GetOrCreateResponse,
  getOrCreateRequestSchema,
  type RotateResponse,
  rotateRequestSchema,
} from '../user-group-api/contract';
import type { ApiKeyRecord } from './api-key-store';
import { type FieldErrors, notFound, ServiceError } from './errors';
import type { UserGroupStore } from './user-group-store';

// zod/mini loads no locale: without this, a message the contract leaves to zod would read only
// "Invalid input" (full zod, which the service no longer imports, loaded English itself).
z.config(z.locales.en());

export type UserGroupMethod = 'GET' | 'POST' | 'DELETE';

export type Operation = (
  body: Record<string, unknown>,
  apiKey: ApiKeyRecord,
  store: UserGroupStore,
) => Promise<GetOrCreateResponse | RotateResponse | DeleteResponse>;

export const operations: Record<UserGroupMethod, Operation> = {
  async GET(body, apiKey, store) {
    const request = validate(getOrCreateRequestSchema, body);
    const { created, userGroup } = await store.getOrCreate(apiKey.environment, request);
    return {
      success: 1,
      new_user_group: created,
      user_group: {
        team_id: userGroup.teamId,
        token: userGroup.token,
        name: userGroup.name,
        provided_id: userGroup.providedId,
        properties: userGroup.properties,
      },
    };
  },

  async POST(body, apiKey, store) {
    const request = validate(rotateRequestSchema, body);
    const rotated = await store.rotate(apiKey.environment, request.current_token);
    if (!rotated) throw notFound('no user group holds this token');
    return {
      success: 1,
      user_group: {
        team_id: rotated.teamId,
        token: rotated.token,
        name: rotated.name,
        provided_id: rotated.providedId,
        api_environment_tag: rotated.environment,
      },
    };
  },

  async DELETE(body, apiKey, store) {
    const request = validate(deleteRequestSchema, body);
    const deleted = await store.delete(apiKey.environment, request.user_group_id, request.current_token);
    if (!deleted) throw notFound('no user group with this id holds this token');
    return { success: 1 };
  },
};

/** Parses with a contract schema; failures become 400 with one message per field path. */
function validate<Schema extends z.core.$ZodType>(
  schema: Schema,
  body: Record<string, unknown>,
): z.output<Schema> {
  const result = z.safeParse(schema, body);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || 'body';
    if (fields[field] !== undefined) continue;
    const missing = issue.path.length === 1 && !Object.hasOwn(body, String(issue.path[0]));
    fields[field] = missing ? 'is required' : issue.message;
  }
  throw new ServiceError('invalid_request', 'the request body is invalid; see error.fields', { fields });
}
