/**
 * The audit log's filters: one schema for the page's query string, the JSON route and the CSV
 * export, so the export downloads exactly the rows the page shows. Times are UTC; a `to` bound is
 * inclusive of the day, minute or second it names.
 */
import { z } from 'zod';
import { environments } from '@/lib/environments';
import { fieldErrors } from '@/lib/validation/field-errors';
import { auditActions } from './actions';

export const AUDIT_PAGE_SIZE = 50;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z?$/;

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === ''
    ? undefined
    : typeof value === 'string'
      ? value.trim()
      : value;

const timeBound = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((value) => DATE.test(value) || MINUTE.test(value) || SECOND.test(value), {
      error: 'must be a date (2026-11-21) or a UTC time (2026-11-21T14:30)',
    })
    .refine((value) => isRealDate(value), { error: 'is not a real date' })
    .optional(),
);

const cursor = z.preprocess(blankToUndefined, z.coerce.number().int().min(1).optional());

const auditFiltersSchema = z
  .object({
    operator: z.preprocess(blankToUndefined, z.string().max(255).optional()),
    action: z.preprocess(blankToUndefined, z.enum(auditActions).optional()),
    environment: z.preprocess(blankToUndefined, z.enum(environments).optional()),
    group: z.preprocess(blankToUndefined, z.string().max(255).optional()),
    from: timeBound,
    to: timeBound,
    // `reads=include`: the log's reads (READ_ACTIONS) are listed too; by default only what changed.
    reads: z.preprocess((value) => value === 'include' || value === true, z.boolean()),
    // Keyset pages: the entries (or folded lines) older than `before`, or newer than `after`, by id.
    before: cursor,
    after: cursor,
  })
  .refine((filters) => !filters.from || !filters.to || lowerBound(filters.from) < upperBound(filters.to), {
    // Said in the page's words (the field's label is From), which `from` of the JSON route reads too.
    error: 'must not be earlier than From',
    path: ['to'],
  });

export type AuditFilters = z.infer<typeof auditFiltersSchema>;

export type AuditFiltersResult =
  | { success: true; filters: AuditFilters }
  | { success: false; fields: Record<string, string> };

/** Accepts URLSearchParams or Next's `searchParams` object; repeated keys keep the first value. */
export function parseAuditFilters(
  input: URLSearchParams | Record<string, string | string[] | undefined>,
): AuditFiltersResult {
  const record: Record<string, string | undefined> = {};
  if (input instanceof URLSearchParams) {
    for (const key of input.keys()) record[key] ??= input.get(key) ?? undefined;
  } else {
    for (const [key, value] of Object.entries(input)) record[key] = Array.isArray(value) ? value[0] : value;
  }
  const parsed = auditFiltersSchema.safeParse(record);
  return parsed.success
    ? { success: true, filters: parsed.data }
    : { success: false, fields: fieldErrors(parsed.error) };
}

/** Where a page of the log starts: older than `before`, or newer than `after` (ids). */
export type AuditCursor = Pick<AuditFilters, 'before' | 'after'>;

/** The filters as a query string (without a cursor unless given), for links, pagination and the export. */
export function auditFiltersQuery(filters: Partial<AuditFilters>, cursor: AuditCursor = {}): string {
  const params = new URLSearchParams();
  if (filters.operator) params.set('operator', filters.operator);
  if (filters.action) params.set('action', filters.action);
  if (filters.environment) params.set('environment', filters.environment);
  if (filters.group) params.set('group', filters.group);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.reads) params.set('reads', 'include');
  if (cursor.before) params.set('before', String(cursor.before));
  else if (cursor.after) params.set('after', String(cursor.after));
  return params.toString();
}

/**
 * What a caller on the server may add to the query string's filters: `exactGroup` for a group's
 * own history (its page), where another id that merely contains this one must not appear. Not in
 * the query string: the audit page searches by part of an id, as the directory does.
 */
export type AuditQuery = Omit<AuditFilters, 'before' | 'after' | 'reads'> & {
  exactGroup?: boolean;
  /** false: only changes (the audit page's default); unset, as for a group's own history: everything. */
  reads?: boolean;
};

/**
 * Entries that record a read, not a change: a token shown or looked up, the log itself read or
 * exported. They stay on record; the audit page lists them when asked (`reads=include`), so that the
 * first page of a working day shows its changes, not one entry per group page opened.
 */
export const READ_ACTIONS = [
  'show-token',
  'token.identify',
  'audit.read',
  'audit.export',
  'operators.export',
] as const;

/** 2026-02-30 parses (as March 2): a real date reads back as written. */
function isRealDate(value: string): boolean {
  const date = parseUtc(value);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value.slice(0, 10);
}

/** A bound as written, read as UTC. */
function parseUtc(value: string): Date {
  if (DATE.test(value)) return new Date(`${value}T00:00:00.000Z`);
  return new Date(value.endsWith('Z') ? value : `${value}Z`);
}

/** The first instant a `from` bound includes, as stored (ISO 8601 UTC). */
export function lowerBound(value: string): string {
  return parseUtc(value).toISOString();
}

/** The first instant after a `to` bound: the next day, minute or second. */
export function upperBound(value: string): string {
  const start = parseUtc(value);
  const step = DATE.test(value) ? 86_400_000 : MINUTE.test(value) ? 60_000 : 1000;
  const truncated =
    DATE.test(value) || MINUTE.test(value) ? start.getTime() : Math.floor(start.getTime() / 1000) * 1000;
  return new Date(truncated + step).toISOString();
}
