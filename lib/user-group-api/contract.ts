/**
 * The User Group Service wire contract (documented in lib/user-group-service/README.md) as zod schemas.
 *
 * One schema per wire shape, shared by everything that speaks the interface: the built-in service
 * validates requests with them, the console's upstream client parses answers with them, and the
 * console's forms and route handlers validate the same request bodies. The constraints the spec
 * leaves "not shown" are decided here, once, and documented in lib/user-group-service/openapi.json.
 */
import { z } from 'zod';

export const USER_GROUP_ID_MAX = 255;
export const NAME_MAX = 255;
export const MAPPING_MAX_ENTRIES = 100;

export const environmentSchema = z.enum(['Customer', 'Testing']);
export type Environment = z.infer<typeof environmentSchema>;

export const userGroupIdSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(USER_GROUP_ID_MAX, { error: `must be at most ${USER_GROUP_ID_MAX} characters` })
  // PostgreSQL text cannot hold NUL: refuse it here so both stores answer 400, not 500.
  .refine((value) => !value.includes('\u0000'), { error: 'must not contain NUL characters' });

export const nameSchema = z
  .string({ error: 'must be a string' })
  .max(NAME_MAX, { error: `must be at most ${NAME_MAX} characters` })
  .refine((value) => !value.includes('\u0000'), { error: 'must not contain NUL characters' });

/** A data source: either its id or the id the caller gave it when creating it. */
export const dataSourceIdSchema = z.union(
  [
    z.string().min(1, { error: 'data source id must not be empty' }),
    z.int({ error: 'data source id must be a string or an integer' }),
  ],
  { error: 'must be a data source id (a non-empty string or an integer)' },
);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Schema id (key) to data source (value). */
export const mappingSchema = z
  .custom<Record<string, unknown>>(isPlainObject, { error: 'must be a JSON object' })
  .pipe(
    z.record(z.string(), dataSourceIdSchema, {
      error: 'values must be data source ids (a string or an integer)',
    }),
  )
  .refine((mapping) => Object.keys(mapping).length <= MAPPING_MAX_ENTRIES, {
    error: `must have at most ${MAPPING_MAX_ENTRIES} entries`,
  });
export type Mapping = z.infer<typeof mappingSchema>;

/** Any JSON object; its values are free-form JSON. */
export const propertiesSchema = z.custom<Record<string, unknown>>(isPlainObject, {
  error: 'must be a JSON object',
});
export type Properties = z.infer<typeof propertiesSchema>;

export const tokenSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(1024, { error: 'must be at most 1024 characters' });

// Requests. Unknown fields are ignored (z.object strips them).

export const getOrCreateRequestSchema = z.object({
  user_group_id: userGroupIdSchema,
  name: nameSchema.optional(),
  mapping: mappingSchema.optional(),
  properties: propertiesSchema.optional(),
});
export type GetOrCreateRequest = z.infer<typeof getOrCreateRequestSchema>;

export const rotateRequestSchema = z.object({
  current_token: tokenSchema,
});
export type RotateRequest = z.infer<typeof rotateRequestSchema>;

export const deleteRequestSchema = z.object({
  user_group_id: userGroupIdSchema,
  current_token: tokenSchema,
});
export type DeleteRequest = z.infer<typeof deleteRequestSchema>;

// Responses.

const userGroupBaseSchema = z.object({
  team_id: z.number().int().positive(),
  token: z.string().min(1),
  name: z.string(),
  provided_id: z.string(),
});

export const getOrCreateResponseSchema = z.object({
  success: z.literal(1),
  new_user_group: z.boolean(),
  user_group: userGroupBaseSchema.extend({
    // "JSON or null", and not necessarily present: absent reads as null.
    properties: z
      .record(z.string(), z.unknown())
      .nullish()
      .transform((value) => value ?? null),
  }),
});
export type GetOrCreateResponse = z.infer<typeof getOrCreateResponseSchema>;

export const rotateResponseSchema = z.object({
  success: z.literal(1),
  user_group: userGroupBaseSchema.extend({
    api_environment_tag: environmentSchema.nullish().transform((value) => value ?? null),
  }),
});
export type RotateResponse = z.infer<typeof rotateResponseSchema>;

export const deleteResponseSchema = z.object({
  success: z.literal(1),
});
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

export const errorCodeSchema = z.enum([
  'invalid_request',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/** The error body of the built-in service. A vendor may answer less: every field but success is optional. */
export const errorResponseSchema = z.object({
  success: z.literal(0),
  error: z
    .object({
      code: z.string().optional(),
      message: z.string().optional(),
      fields: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
