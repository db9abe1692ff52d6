/**
 * Writing and reading the audit log. Framework-free: takes the console database's Kysely instance,
 * so the launcher, the server and the tests use it alike.
 */
import type { Insertable, Selectable } from 'kysely';
import type { AuditEventTable, ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { AUDIT_PAGE_SIZE, type AuditFilters, type AuditQuery, applyAuditFilters } from './filters';
import { tokenFingerprint } from './fingerprint';
import type { AuditAction } from './schema';

export type AuditEvent = Selectable<AuditEventTable>;

export interface AuditEntry {
  action: AuditAction;
  operator: { id: string | null; email: string | null } | null;
  outcome: string;
  requestId: string;
  environment?: Environment | null;
  userGroupId?: string | null;
  userGroupName?: string | null;
  /** Fingerprinted here; the token itself is never stored. */
  token?: string | null;
  previousToken?: string | null;
  detail?: string | null;
  at?: Date;
}

const MAX_TEXT = 1024;

function clip(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

/** Writes one entry; answers its id. */
export async function recordAuditEvent(db: ConsoleDb, entry: AuditEntry): Promise<number> {
  const { id } = await db
    .insertInto('audit_event')
    .values(auditRow(entry))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Many entries, a statement per few hundred: a bulk job writes one per row. */
export async function recordAuditEvents(db: ConsoleDb, entries: AuditEntry[]): Promise<void> {
  // 12 columns: well under SQLite's and PostgreSQL's limits on a statement's parameters.
  const ROWS_PER_STATEMENT = 500;
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT)
    await db
      .insertInto('audit_event')
      .values(entries.slice(start, start + ROWS_PER_STATEMENT).map(auditRow))
      .execute();
}

function auditRow(entry: AuditEntry): Insertable<AuditEventTable> {
  return {
    at: (entry.at ?? new Date()).toISOString(),
    operator_id: entry.operator?.id ?? null,
    operator_email: clip(entry.operator?.email),
    action: entry.action,
    environment: entry.environment ?? null,
    user_group_id: clip(entry.userGroupId),
    user_group_name: clip(entry.userGroupName),
    outcome: entry.outcome,
    request_id: entry.requestId,
    token_fingerprint: tokenFingerprint(entry.token),
    previous_token_fingerprint: tokenFingerprint(entry.previousToken),
    detail: clip(entry.detail),
  };
}

export type AuditSettlement = Pick<
  AuditEntry,
  'outcome' | 'userGroupId' | 'userGroupName' | 'token' | 'previousToken' | 'detail'
>;

/** Completes an entry written before its action ran: the outcome and what the answer added. */
export async function settleAuditEvent(
  db: ConsoleDb,
  id: number,
  settlement: AuditSettlement,
): Promise<void> {
  await db
    .updateTable('audit_event')
    .set({
      outcome: settlement.outcome,
      ...(settlement.userGroupId !== undefined ? { user_group_id: clip(settlement.userGroupId) } : {}),
      ...(settlement.userGroupName !== undefined ? { user_group_name: clip(settlement.userGroupName) } : {}),
      ...(settlement.token !== undefined ? { token_fingerprint: tokenFingerprint(settlement.token) } : {}),
      ...(settlement.previousToken !== undefined
        ? { previous_token_fingerprint: tokenFingerprint(settlement.previousToken) }
        : {}),
      ...(settlement.detail !== undefined ? { detail: clip(settlement.detail) } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export interface AuditPage {
  events: AuditEvent[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

export async function listAuditEvents(
  db: ConsoleDb,
  filters: AuditQuery & Pick<AuditFilters, 'page'>,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<AuditPage> {
  const base = applyAuditFilters(db.selectFrom('audit_event'), filters);
  const counted = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  // PostgreSQL answers a count as a bigint string.
  const total = Number(counted.total);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(filters.page, pageCount);
  const events = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { events, total, page, pageCount, pageSize };
}

/** Every row the filters select, newest first, as the page lists them. */
export async function exportAuditEvents(
  db: ConsoleDb,
  filters: Omit<AuditFilters, 'page'>,
  limit = 100_000,
): Promise<AuditEvent[]> {
  return applyAuditFilters(db.selectFrom('audit_event'), filters)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** How many of a folded request's entries the page carries; the rest are on the job's page. */
const FOLDED_ENTRIES_SHOWN = 100;

/**
 * One line of the audit page: an entry, or the entries that share one request id folded together.
 * Every console request writes one entry under its own id, except a bulk job: its rows, its start,
 * pauses and downloads all carry the job's id, and fold under it.
 */
export type AuditItem =
  | { kind: 'entry'; event: AuditEvent }
  | {
      kind: 'request';
      requestId: string;
      /** Entries of the request that the filters select. */
      entries: number;
      /** Its entries by action and outcome, to say "300 rows (298 success, 2 failed)". */
      outcomes: { action: string; outcome: string; entries: number }[];
      /** The newest FOLDED_ENTRIES_SHOWN of them, newest first. */
      events: AuditEvent[];
    };

export interface AuditItemPage {
  items: AuditItem[];
  /** Entries the filters select, folded or not (what the export downloads). */
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/**
 * The audit page's listing: the entries the filters select, those sharing a request id folded into
 * one item, newest first by each item's newest entry; paged by items, so a job of 10,000 rows is
 * one line, not 200 pages. An index on (request_id, id) answers the folding.
 */
export async function listAuditItems(
  db: ConsoleDb,
  filters: AuditQuery & Pick<AuditFilters, 'page'>,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<AuditItemPage> {
  const base = applyAuditFilters(db.selectFrom('audit_event'), filters);
  // Counted over the grouped requests: PostgreSQL's count(distinct …) sorts, its group by hashes.
  const counted = await db
    .selectFrom(
      base
        .select((eb) => ['request_id', eb.fn.countAll().as('entries')])
        .groupBy('request_id')
        .as('requests'),
    )
    .select((eb) => [eb.fn.countAll().as('requests'), eb.fn.sum('entries').as('entries')])
    .executeTakeFirstOrThrow();
  // PostgreSQL answers a count (and a sum of counts) as a bigint or numeric string; none is null.
  const total = Number(counted.entries ?? 0);
  const pageCount = Math.max(1, Math.ceil(Number(counted.requests) / pageSize));
  const page = Math.min(filters.page, pageCount);
  const requests = await base
    .select((eb) => ['request_id', eb.fn.max('id').as('last_id'), eb.fn.countAll().as('entries')])
    .groupBy('request_id')
    .orderBy((eb) => eb.fn.max('id'), 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const singles = requests.filter((request) => Number(request.entries) === 1);
  const folded = requests
    .filter((request) => Number(request.entries) > 1)
    .map((request) => request.request_id);
  const [entries, outcomes, foldedEvents] = await Promise.all([
    singles.length === 0
      ? []
      : db
          .selectFrom('audit_event')
          .selectAll()
          .where(
            'id',
            'in',
            singles.map((request) => Number(request.last_id)),
          )
          .execute(),
    folded.length === 0
      ? []
      : base
          .select((eb) => ['request_id', 'action', 'outcome', eb.fn.countAll().as('entries')])
          .where('request_id', 'in', folded)
          .groupBy(['request_id', 'action', 'outcome'])
          .execute(),
    Promise.all(
      folded.map((requestId) =>
        base
          .selectAll()
          .where('request_id', '=', requestId)
          .orderBy('id', 'desc')
          .limit(FOLDED_ENTRIES_SHOWN)
          .execute(),
      ),
    ),
  ]);
  const entryById = new Map(entries.map((event) => [event.id, event]));
  const eventsByRequest = new Map(folded.map((requestId, index) => [requestId, foldedEvents[index] ?? []]));
  const items = requests.flatMap((request): AuditItem[] => {
    if (Number(request.entries) === 1) {
      const event = entryById.get(Number(request.last_id));
      return event ? [{ kind: 'entry', event }] : [];
    }
    return [
      {
        kind: 'request',
        requestId: request.request_id,
        entries: Number(request.entries),
        outcomes: outcomes
          .filter((row) => row.request_id === request.request_id)
          .map((row) => ({ action: row.action, outcome: row.outcome, entries: Number(row.entries) })),
        events: eventsByRequest.get(request.request_id) ?? [],
      },
    ];
  });
  return { items, total, page, pageCount, pageSize };
}
