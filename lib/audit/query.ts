/**
 * The audit log's filters as SQL that stays fast at ten million entries: every filter the page
 * offers is answered by an index walked newest first, never by a scan of the table.
 * - A person (part of an email) is resolved to the operators' emails first: the operators table is
 *   small, and every entry names a known operator or none (lib/auth/proxy records unknown
 *   emails as none). Then `operator_email in (…)` walks (operator_email, id).
 * - Part of a group id is resolved to ids through the directory's trigram index (lib/directory),
 *   which holds every group this console ever touched, deleted ones too; the part itself counts as
 *   a whole id as well (a group the directory never recorded). Under three characters a trigram
 *   cannot help: the part must then be the whole id. More than GROUP_MATCH_LIMIT ids: the part is
 *   common enough that walking the log newest first finds a page of matches early.
 * - A time range becomes an id range too (ids grow with time), so a range walks ids, not `at`.
 * PostgreSQL's plans for these are checked at two sizes in plans.test.ts.
 */
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleTables } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import { directoryIdsContaining } from '@/lib/directory/matching-ids';
import { type AuditQuery, lowerBound, READ_ACTIONS, upperBound } from './filters';

const GROUP_MATCH_LIMIT = 1_000;

type AuditSelect<O> = SelectQueryBuilder<ConsoleTables, 'audit_event', O>;

/** Where a walk of the log is: strictly below `below` and above `above` (a keyset cursor). */
interface IdSpan {
  below?: number;
  above?: number;
}

/**
 * The filters, resolved once per request, applied to any select of the log, within the walk's span:
 * a time range's ids and the cursor are one lower and one upper bound on the primary key, since
 * given two upper bounds SQLite walks down from the range's end to the cursor, every batch again.
 */
export type AuditWhere = <O>(query: AuditSelect<O>, span?: IdSpan) => AuditSelect<O>;

/** A filter that nothing can match (a person who is no operator): answered without a query. */
export const matchesNothing = Symbol('matches nothing');

export async function resolveAuditFilters(
  database: ConsoleDatabase,
  filters: AuditQuery,
): Promise<AuditWhere | typeof matchesNothing> {
  const db = database.reads;
  const emails = filters.operator ? await operatorEmailsContaining(database, filters.operator) : undefined;
  if (emails?.length === 0) return matchesNothing;
  const groupIds =
    filters.group && !filters.exactGroup
      ? await directoryIdsContaining(database, filters.group, GROUP_MATCH_LIMIT)
      : undefined;
  // Ids grow with time: a range's ends are found on the time index, one row each.
  const [fromId, toId] = await Promise.all([
    filters.from
      ? db
          .selectFrom('audit_event')
          .select('id')
          .where('at', '>=', lowerBound(filters.from))
          .orderBy('at', 'asc')
          .limit(1)
          .executeTakeFirst()
      : undefined,
    filters.to
      ? db
          .selectFrom('audit_event')
          .select('id')
          .where('at', '<', upperBound(filters.to))
          .orderBy('at', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined,
  ]);
  if ((filters.from && fromId?.id == null) || (filters.to && toId?.id == null)) return matchesNothing;
  // Reads are left out only where no action was asked for: asking for `show-token` lists those.
  const withoutReads = filters.reads === false && !filters.action;
  const conditions = (eb: ExpressionBuilder<ConsoleTables, 'audit_event'>) => {
    const parts: Expression<SqlBool>[] = [];
    if (withoutReads) parts.push(eb('action', 'not in', [...READ_ACTIONS]));
    if (emails) parts.push(eb('operator_email', 'in', emails));
    if (filters.action) parts.push(eb('action', '=', filters.action));
    if (filters.environment) parts.push(eb('environment', '=', filters.environment));
    if (filters.group) {
      if (groupIds === undefined) parts.push(eb('user_group_id', '=', filters.group));
      else if (groupIds === null) parts.push(containing('user_group_id', filters.group));
      else parts.push(eb('user_group_id', 'in', [...new Set([filters.group, ...groupIds])]));
    }
    // The range is walked on ids (below); the times still check each row (an entry written late),
    // but as an expression no index holds: given both, PostgreSQL read the day from the time index
    // and sorted it instead of walking the ids (lib/audit/plans.test.ts).
    const at = sql<string>`${sql.ref('at')} || ''`;
    if (filters.from) parts.push(eb(at, '>=', lowerBound(filters.from)));
    if (filters.to) parts.push(eb(at, '<', upperBound(filters.to)));
    return parts;
  };
  const rangeFrom = fromId?.id == null ? null : Number(fromId.id);
  const rangeTo = toId?.id == null ? null : Number(toId.id);
  return (query, span = {}) =>
    query.where((eb) => {
      const parts = conditions(eb);
      const lowest = highestOf(rangeFrom, span.above === undefined ? null : span.above + 1);
      const highest = lowestOf(rangeTo, span.below === undefined ? null : span.below - 1);
      if (lowest !== null) parts.push(eb('id', '>=', lowest));
      if (highest !== null) parts.push(eb('id', '<=', highest));
      return parts.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(parts);
    });
}

const highestOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const lowestOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** The operators whose email holds the part (any case); the part itself when it is a whole email. */
async function operatorEmailsContaining(database: ConsoleDatabase, part: string): Promise<string[]> {
  const rows = await database.reads
    .selectFrom('user')
    .select('email')
    .where(sql<SqlBool>`lower(email) like lower(${`%${escapeLike(part)}%`}) escape '\\'`)
    .limit(GROUP_MATCH_LIMIT)
    .execute();
  const emails = new Set(rows.map((row) => row.email));
  if (part.includes('@')) emails.add(part);
  return [...emails];
}

/** A case-insensitive substring of a column, wildcards in the input taken literally. */
function containing(column: 'user_group_id', part: string) {
  // lower() on both sides: SQLite's LIKE ignores case (ASCII), PostgreSQL's does not.
  const pattern = `%${escapeLike(part)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/**
 * The entries of a few requests (a page's lines) that the filters select. SQLite plans a filter's
 * index (every `rotate`) before the requests' own without statistics: the CROSS JOIN makes it
 * start from the requests' entries (index (request_id, id)), whatever the filters.
 */
export function entriesOfRequests(database: ConsoleDatabase, where: AuditWhere, requestIds: string[]) {
  const entries = database.reads
    .selectFrom((eb) =>
      eb
        .selectFrom('audit_event')
        .select('id as entry_id')
        .where('request_id', 'in', requestIds)
        .as('of_requests'),
    )
    .crossJoin('audit_event')
    .whereRef('audit_event.id', '=', 'of_requests.entry_id');
  // The filters name audit_event's columns only; of_requests holds none of them.
  return where(entries as unknown as AuditSelect<object>) as unknown as typeof entries;
}
