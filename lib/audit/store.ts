/**
 * Writing and reading the audit log. Framework-free: takes the console database's Kysely instance,
 * so the launcher, the server and the tests use it alike. Reads go to the database's read pool
 * (`reads`: off the event loop, under a time limit).
 */
import type { Insertable, Selectable } from 'kysely';
import { enqueueStreamed, streamSet } from '@/lib/audit-stream/outbox';
import type { Clock } from '@/lib/clock';
import type { AuditEventTable, ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { AuditAction } from './actions';
import { AUDIT_PAGE_SIZE, type AuditCursor, type AuditQuery } from './filters';
import { tokenFingerprint } from './fingerprint';
import { type AuditWhere, matchesNothing, resolveAuditFilters } from './query';

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
  /** When it happened: the writer (audit-log.ts) stamps it with the clock it is handed. */
  at?: Date;
}

const MAX_TEXT = 1024;

function clip(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

/** In the caller's transaction when it has one: an entry and its stream's outbox row commit together. */
const inTransaction = <T>(db: ConsoleDb, run: (trx: ConsoleDb) => Promise<T>): Promise<T> =>
  db.isTransaction ? run(db) : db.transaction().execute(run);

/**
 * Writes one entry (and its outbox row while a stream is set); answers its id. An entry without
 * `at` is stamped by `clock`.
 */
export async function recordAuditEvent(
  db: ConsoleDb,
  entry: AuditEntry,
  clock: Pick<Clock, 'now'>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('audit_event')
      .values(auditRow(entry, clock))
      .returningAll()
      .returning(streamSet)
      .executeTakeFirstOrThrow();
    await enqueueStreamed(trx, [row], 0, clock);
    return row.id;
  });
}

/** Many entries, a statement per few hundred: a bulk job writes one per row. */
export async function recordAuditEvents(
  db: ConsoleDb,
  entries: AuditEntry[],
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  // 12 columns: well under SQLite's and PostgreSQL's limits on a statement's parameters.
  const ROWS_PER_STATEMENT = 500;
  await inTransaction(db, async (trx) => {
    for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
      const rows = await trx
        .insertInto('audit_event')
        .values(entries.slice(start, start + ROWS_PER_STATEMENT).map((entry) => auditRow(entry, clock)))
        .returningAll()
        .returning(streamSet)
        .execute();
      await enqueueStreamed(trx, rows, 0, clock);
    }
  });
}

function auditRow(entry: AuditEntry, clock: Pick<Clock, 'now'>): Insertable<AuditEventTable> {
  return {
    at: (entry.at ?? new Date(clock.now())).toISOString(),
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
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const settled = await trx
      .updateTable('audit_event')
      .set({
        outcome: settlement.outcome,
        ...(settlement.userGroupId !== undefined ? { user_group_id: clip(settlement.userGroupId) } : {}),
        ...(settlement.userGroupName !== undefined
          ? { user_group_name: clip(settlement.userGroupName) }
          : {}),
        ...(settlement.token !== undefined ? { token_fingerprint: tokenFingerprint(settlement.token) } : {}),
        ...(settlement.previousToken !== undefined
          ? { previous_token_fingerprint: tokenFingerprint(settlement.previousToken) }
          : {}),
        ...(settlement.detail !== undefined ? { detail: clip(settlement.detail) } : {}),
      })
      .where('id', '=', id)
      .returningAll()
      .returning(streamSet)
      .execute();
    await enqueueStreamed(trx, settled, 1, clock);
  });
}

/**
 * How far a page counts the entries its filters select: enough to say "3 entries" or "1,000+" (as the directory does);
 * counting all of ten million would cost a walk of them all on every page.
 */
export const AUDIT_COUNT_LIMIT = 1_000;

export interface AuditPage {
  events: AuditEvent[];
  /** Entries the filters select, counted up to AUDIT_COUNT_LIMIT (see totalIsLowerBound). */
  total: number;
  totalIsLowerBound: boolean;
  pageSize: number;
  /** The cursor of the next, older page (`before`), or null on the last. */
  nextBefore: number | null;
  /** The cursor of the newer page (`after`), or null on the first. */
  previousAfter: number | null;
}

/** The count of a page's entries, up to AUDIT_COUNT_LIMIT + 1 (plans.test.ts asks for its plan). */
export function countQuery(database: ConsoleDatabase, where: AuditWhere) {
  return database.reads
    .selectFrom(
      // Newest first, as the page walks: an index in another order (an action's) would first cross
      // every entry the filters leave out (a million reads, at ten million entries).
      where(database.reads.selectFrom('audit_event').select('id'))
        .orderBy('id', 'desc')
        .limit(AUDIT_COUNT_LIMIT + 1)
        .as('matches'),
    )
    .select((eb) => eb.fn.countAll().as('total'));
}

export async function countWithin(database: ConsoleDatabase, where: AuditWhere) {
  const counted = await countQuery(database, where).executeTakeFirstOrThrow();
  // PostgreSQL answers a count as a bigint string.
  const total = Number(counted.total);
  return { total: Math.min(total, AUDIT_COUNT_LIMIT), totalIsLowerBound: total > AUDIT_COUNT_LIMIT };
}

const noPage = (pageSize: number): AuditPage => ({
  events: [],
  total: 0,
  totalIsLowerBound: false,
  pageSize,
  nextBefore: null,
  previousAfter: null,
});

/** A page read newer than `after` (oldest first, shown reversed); otherwise older than `before`. */
export const readsNewer = (cursor: AuditCursor): boolean =>
  cursor.after !== undefined && cursor.before === undefined;

/**
 * A keyset page from what was read (up to pageSize + 1, to know whether there is more), newest
 * first, with the cursors of the older and the newer page: the ids of its last and first rows.
 */
export function keysetPage<T>(found: T[], idOf: (row: T) => number, cursor: AuditCursor, pageSize: number) {
  const newer = readsNewer(cursor);
  const more = found.length > pageSize;
  const rows = newer ? found.slice(0, pageSize).reverse() : found.slice(0, pageSize);
  const first = rows[0] === undefined ? null : idOf(rows[0]);
  const last = rows.at(-1) === undefined ? null : idOf(rows.at(-1) as T);
  return {
    rows,
    nextBefore: (newer ? last !== null : more) ? last : null,
    previousAfter: (newer ? more : cursor.before !== undefined) ? first : null,
  };
}

/** The entries of a page and one more (is there an older one?), newest first unless reading newer. */
export function auditPageQuery(
  database: ConsoleDatabase,
  where: AuditWhere,
  cursor: AuditCursor,
  pageSize = AUDIT_PAGE_SIZE,
) {
  return where(
    database.reads.selectFrom('audit_event').selectAll(),
    cursor.before !== undefined ? { below: cursor.before } : { above: cursor.after },
  )
    .orderBy('id', readsNewer(cursor) ? 'asc' : 'desc')
    .limit(pageSize + 1);
}

/** One page of entries, newest first, older than `before` or newer than `after`. */
export async function listAuditEvents(
  database: ConsoleDatabase,
  filters: AuditQuery & AuditCursor,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<AuditPage> {
  const where = await resolveAuditFilters(database, filters);
  if (where === matchesNothing) return noPage(pageSize);
  const [found, counted] = await Promise.all([
    auditPageQuery(database, where, filters, pageSize).execute(),
    countWithin(database, where),
  ]);
  const { rows: events, ...cursors } = keysetPage(found, (event) => event.id, filters, pageSize);
  return { events, ...counted, pageSize, ...cursors };
}

/**
 * Every entry the filters select, newest first, in batches read by keyset: memory stays that of
 * one batch however many there are (the CSV export streams them as they come).
 */
export async function* exportAuditRows(
  database: ConsoleDatabase,
  filters: AuditQuery,
  limit = Number.POSITIVE_INFINITY,
  batchSize = 1_000,
): AsyncGenerator<AuditEvent[]> {
  const where = await resolveAuditFilters(database, filters);
  if (where === matchesNothing) return;
  let before: number | undefined;
  let left = limit;
  while (left > 0) {
    const batch = await where(database.reads.selectFrom('audit_event').selectAll(), { below: before })
      .orderBy('id', 'desc')
      .limit(Math.min(batchSize, left))
      .execute();
    if (batch.length === 0) return;
    yield batch;
    left -= batch.length;
    before = batch.at(-1)?.id;
    if (batch.length < batchSize) return;
  }
}
