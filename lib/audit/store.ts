/**
 * Writing and reading the audit log. Framework-free: takes the console database's Kysely instance,
 * so the launcher, the server and the tests use it alike.
 */
import type { Insertable, Selectable } from 'kysely';
import type { AuditEventTable, ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { AUDIT_PAGE_SIZE, type AuditFilters, applyAuditFilters } from './filters';
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
  'outcome' | 'userGroupId' | 'userGroupName' | 'token' | 'previousToken'
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
  filters: AuditFilters,
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
