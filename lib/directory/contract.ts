/**
 * The directory search, both sides: the query string of `GET /api/user-groups/<slug>` (one schema
 * for the route handler and the browser), its answer, and the browser's typed call. The directory
 * holds ids, names and token fingerprints, never tokens, so every signed-in operator may search it.
 */
import * as z from 'zod/mini';
import { environments } from '@/lib/environments';
import { fieldErrors } from '@/lib/validation/field-errors';

export const DIRECTORY_SEARCH_MAX = 200;
const DIRECTORY_PAGE_MAX = 100_000;
const DIRECTORY_PAGE_SIZE_MAX = 100;

/** The same sorts as lib/directory/store.ts (the route handler's types check they agree). */
const directorySortSchema = z.enum(['updated', 'id', 'name', 'created'], {
  error: 'must be updated, id, name or created',
});
const directoryOrderSchema = z.enum(['asc', 'desc'], { error: 'must be asc or desc' });

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A blank value counts as absent (z.preprocess of full zod, which zod/mini has not got). */
const blankIsAbsent = <Schema extends z.core.$ZodType>(schema: Schema) =>
  z.pipe(z.transform(blankToUndefined), schema);

const bounded = (max: number, fallback: number) => {
  const error = `must be a whole number from 1 to ${max}`;
  return blankIsAbsent(
    z._default(
      z.coerce.number({ error }).check(z.int({ error }), z.minimum(1, { error }), z.maximum(max, { error })),
      fallback,
    ),
  );
};

/** The query string: `q` is part of an id or a name; without `sort`, newest changes first. */
const directoryQuerySchema = z.object({
  q: blankIsAbsent(
    z.optional(
      z.string().check(
        z.maxLength(DIRECTORY_SEARCH_MAX, { error: `must be at most ${DIRECTORY_SEARCH_MAX} characters` }),
        z.refine((value) => !value.includes('\0'), { error: 'must not contain a NUL character' }),
      ),
    ),
  ),
  sort: blankIsAbsent(z.optional(directorySortSchema)),
  order: blankIsAbsent(z.optional(directoryOrderSchema)),
  page: bounded(DIRECTORY_PAGE_MAX, 1),
  pageSize: bounded(DIRECTORY_PAGE_SIZE_MAX, 25),
});
type DirectoryQuery = z.output<typeof directoryQuerySchema>;

/** What the browser asks for; omitted fields take the route's defaults. */
export type DirectorySearch = Partial<DirectoryQuery>;

export type DirectoryQueryResult =
  | { success: true; query: DirectoryQuery }
  | { success: false; fields: Record<string, string> };

/** Repeated keys keep the first value, as the audit filters do. */
export function parseDirectoryQuery(params: URLSearchParams): DirectoryQueryResult {
  const record: Record<string, string | undefined> = {};
  for (const key of params.keys()) record[key] ??= params.get(key) ?? undefined;
  const parsed = directoryQuerySchema.safeParse(record);
  return parsed.success
    ? { success: true, query: parsed.data }
    : { success: false, fields: fieldErrors(parsed.error) };
}

export function directoryQueryString(search: DirectorySearch): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const record = z.record(z.string(), z.unknown());

const directoryEntrySchema = z.object({
  environment: z.enum(environments),
  userGroupId: z.string(),
  name: z.nullable(z.string()),
  teamId: z.nullable(z.number()),
  properties: z.nullable(record),
  mapping: z.nullable(record),
  tokenFingerprint: z.nullable(z.string()),
  createdAt: z.nullable(z.string()),
  createdBy: z.nullable(z.string()),
  updatedAt: z.string(),
  updatedBy: z.nullable(z.string()),
  deletedAt: z.nullable(z.string()),
  deletedBy: z.nullable(z.string()),
});
export type DirectoryEntryAnswer = z.infer<typeof directoryEntrySchema>;

export const directoryPageSchema = z.object({
  groups: z.array(directoryEntrySchema),
  total: z.number().check(z.int(), z.nonnegative()),
  /** More groups match a search than were counted: show `${total}+` and suggest refining. */
  totalIsLowerBound: z.boolean(),
  page: z.number().check(z.int(), z.positive()),
  pageCount: z.number().check(z.int(), z.positive()),
  pageSize: z.number().check(z.int(), z.positive()),
});
