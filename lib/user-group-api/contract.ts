/**
 * The User Group Service wire contract (documented in lib/user-group-service/README.md) as zod schemas.
 *
 * One schema per wire shape, shared by everything that speaks the interface: the built-in service
 * validates requests with them, the console's upstream client parses answers with them, and the
 * console's forms and route handlers validate the same request bodies. The constraints the spec
 * leaves "not shown" are decided here, once, and documented in lib/user-group-service/openapi.json.
 *
 * Written with zod/mini: the console's forms bring these schemas to the browser, and full zod is
 * about 33 kB gzip there against a few kB for what this uses (bench/README.md, page weight).
 */
import * as z from 'zod/mini';

export const USER_GROUP_ID_MAX = 255;
export const NAME_MAX = 255;
const MAPPING_MAX_ENTRIES = 100;
/**
 * How deep a request body may nest arrays and objects, the body's own braces counting as the first
 * level: JSON.stringify recurses, and a deeply nested `properties` would overflow the stack.
 */
export const JSON_DEPTH_MAX = 64;

export const environmentSchema = z.enum(['Customer', 'Testing']);
export type Environment = z.infer<typeof environmentSchema>;

const noNul = z.refine<string>((value) => !value.includes('\u0000'), {
  error: 'must not contain NUL characters',
});

/**
 * Text that is not well-formed Unicode (a lone surrogate, as JSON's `"\ud800"` writes one) cannot be
 * stored as itself: PostgreSQL keeps `"x\ud800y"` and `"x\udbffy"` as the same text, so two callers'
 * different ids would share one group and its token. Refused, on every store alike.
 */
const wellFormed = z.refine<string>((value) => !/\p{Cs}/u.test(value), {
  error: 'must be well-formed Unicode text (it holds a lone surrogate)',
});

export const userGroupIdSchema = z.string({ error: 'must be a string' }).check(
  z.minLength(1, { error: 'must not be empty' }),
  z.maxLength(USER_GROUP_ID_MAX, { error: `must be at most ${USER_GROUP_ID_MAX} characters` }),
  // PostgreSQL text cannot hold NUL: refuse it here so both stores answer 400, not 500.
  noNul,
  wellFormed,
);

export const nameSchema = z
  .string({ error: 'must be a string' })
  .check(z.maxLength(NAME_MAX, { error: `must be at most ${NAME_MAX} characters` }), noNul, wellFormed);

/** A data source: either its id or the id the caller gave it when creating it. */
const dataSourceIdSchema = z.union(
  [
    z.string().check(z.minLength(1, { error: 'data source id must not be empty' }), wellFormed),
    z.int({ error: 'data source id must be a string or an integer' }),
  ],
  { error: 'must be a data source id (a non-empty string or an integer)' },
);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Schema id (key) to data source (value). */
export const mappingSchema = z
  .pipe(
    z.custom<Record<string, unknown>>(isPlainObject, { error: 'must be a JSON object' }),
    z.record(z.string(), dataSourceIdSchema, {
      error: 'values must be data source ids (a string or an integer)',
    }),
  )
  .check(
    z.refine((mapping) => Object.keys(mapping).length <= MAPPING_MAX_ENTRIES, {
      error: `must have at most ${MAPPING_MAX_ENTRIES} entries`,
    }),
  );
export type Mapping = z.infer<typeof mappingSchema>;

/** Any JSON object; its values are free-form JSON. */
export const propertiesSchema = z.custom<Record<string, unknown>>(isPlainObject, {
  error: 'must be a JSON object',
});
export type Properties = z.infer<typeof propertiesSchema>;

export const tokenSchema = z
  .string({ error: 'must be a string' })
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(1024, { error: 'must be at most 1024 characters' }),
  );

// Requests. Unknown fields are ignored (z.object strips them).

export const getOrCreateRequestSchema = z.object({
  user_group_id: userGroupIdSchema,
  name: z.optional(nameSchema),
  mapping: z.optional(mappingSchema),
  properties: z.optional(propertiesSchema),
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

/** Absent or null reads as null. */
const orNull = <Schema extends z.core.$ZodType>(schema: Schema) =>
  z.pipe(
    z.nullish(schema),
    z.transform((value: z.output<Schema> | null | undefined) => value ?? null),
  );

const userGroupBaseSchema = z.object({
  team_id: z.number().check(z.int(), z.positive()),
  token: z.string().check(z.minLength(1)),
  name: z.string(),
  provided_id: z.string(),
});

export const getOrCreateResponseSchema = z.object({
  success: z.literal(1),
  new_user_group: z.boolean(),
  user_group: z.extend(userGroupBaseSchema, {
    // "JSON or null", and not necessarily present: absent reads as null.
    properties: orNull(z.record(z.string(), z.unknown())),
  }),
});
export type GetOrCreateResponse = z.infer<typeof getOrCreateResponseSchema>;

export const rotateResponseSchema = z.object({
  success: z.literal(1),
  user_group: z.extend(userGroupBaseSchema, {
    api_environment_tag: orNull(environmentSchema),
  }),
});
export type RotateResponse = z.infer<typeof rotateResponseSchema>;

export const deleteResponseSchema = z.object({
  success: z.literal(1),
});
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

const errorCodeSchema = z.enum([
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
  error: z.optional(
    z.object({
      code: z.optional(z.string()),
      message: z.optional(z.string()),
      fields: z.optional(z.record(z.string(), z.string())),
    }),
  ),
});
