/**
 * The audit page's lines: the entries sharing a request id (a bulk job's) folded into one, paged
 * by keyset on each line's newest entry. Read through the same resolved filters as the JSON page
 * (./query.ts), and bounded by the page's own lines, never the table's size.
 */
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { AUDIT_PAGE_SIZE, type AuditCursor, type AuditQuery } from './filters';
import { type AuditWhere, entriesOfRequests, matchesNothing, resolveAuditFilters } from './query';
import { type AuditEvent, countWithin, keysetPage, readsNewer } from './store';

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
  /** Entries the filters select, folded or not, up to AUDIT_COUNT_LIMIT (what the export downloads). */
  total: number;
  totalIsLowerBound: boolean;
  pageSize: number;
  /** Cursors of the older and the newer page: the newest entry id of the page's last or first line. */
  nextBefore: number | null;
  previousAfter: number | null;
}

/** A request on a page: its newest entry that the filters select. */
interface Line {
  requestId: string;
  lastId: number;
}

/**
 * The audit page's listing: the entries the filters select, those sharing a request id folded into
 * one line, newest first by each line's newest entry; paged by lines (a job of 10,000 rows is one
 * line), by keyset on that newest entry's id. Found by walking the filtered entries newest first
 * (each step skipping the requests already met), so a page costs its own lines, not the table.
 */
export async function listAuditItems(
  database: ConsoleDatabase,
  filters: AuditQuery & AuditCursor,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<AuditItemPage> {
  const where = await resolveAuditFilters(database, filters);
  if (where === matchesNothing)
    return { items: [], total: 0, totalIsLowerBound: false, pageSize, nextBefore: null, previousAfter: null };
  const [found, counted] = await Promise.all([
    readsNewer(filters)
      ? linesAfter(database, where, filters.after ?? 0, pageSize + 1)
      : linesBefore(database, where, filters.before, pageSize + 1),
    countWithin(database, where),
  ]);
  const { rows: lines, ...cursors } = keysetPage(found, (line) => line.lastId, filters, pageSize);
  const items = await itemsOf(database, where, lines);
  return { items, ...counted, pageSize, ...cursors };
}

/** Up to `wanted` lines whose newest entry is older than `before`, newest first. */
async function linesBefore(
  database: ConsoleDatabase,
  where: AuditWhere,
  before: number | undefined,
  wanted: number,
): Promise<Line[]> {
  const db = database.reads;
  const lines: Line[] = [];
  // Requests met on the walk; those with a newer entry (above the cursor) were on a newer page.
  const met = new Set<string>();
  let cursor = before;
  while (lines.length < wanted) {
    let step = where(db.selectFrom('audit_event').select(['id', 'request_id']), { below: cursor });
    if (met.size > 0) step = step.where('request_id', 'not in', [...met]);
    const rows = await step.orderBy('id', 'desc').limit(wanted).execute();
    if (rows.length === 0) break;
    const fresh: Line[] = [];
    for (const row of rows)
      if (!met.has(row.request_id)) {
        met.add(row.request_id);
        fresh.push({ requestId: row.request_id, lastId: row.id });
      }
    const listedAbove =
      before === undefined
        ? new Set<string>()
        : await requestsWithEntriesFrom(database, where, fresh, before);
    lines.push(...fresh.filter((line) => !listedAbove.has(line.requestId)));
    cursor = rows.at(-1)?.id;
  }
  return lines.slice(0, wanted);
}

/**
 * Up to `wanted` lines whose newest entry is newer than `after`, oldest first. Walking up from the
 * cursor meets a request at its oldest entry there; its newest (its line's place) may be far above,
 * so a line counts once the walk has passed its newest entry.
 */
async function linesAfter(
  database: ConsoleDatabase,
  where: AuditWhere,
  after: number,
  wanted: number,
): Promise<Line[]> {
  const db = database.reads;
  const met = new Map<string, number>();
  let cursor = after;
  for (;;) {
    const rows = await where(db.selectFrom('audit_event').select(['id', 'request_id']), { above: cursor })
      .orderBy('id', 'asc')
      .limit(wanted)
      .execute();
    const fresh = rows.filter((row) => !met.has(row.request_id));
    if (fresh.length > 0) {
      const newest = await entriesOfRequests(database, where, [
        ...new Set(fresh.map((row) => row.request_id)),
      ])
        .select((eb) => ['audit_event.request_id', eb.fn.max('audit_event.id').as('last_id')])
        .groupBy('audit_event.request_id')
        .execute();
      for (const row of newest) met.set(row.request_id, Number(row.last_id));
    }
    const reached = rows.at(-1)?.id;
    const passed = [...met.values()].filter((lastId) => reached === undefined || lastId <= reached).length;
    if (rows.length < wanted || passed >= wanted) break;
    cursor = reached ?? cursor;
  }
  return [...met.entries()]
    .map(([requestId, lastId]) => ({ requestId, lastId }))
    .sort((a, b) => a.lastId - b.lastId)
    .slice(0, wanted);
}

/** Which of these requests have an entry the filters select at or above `from`. */
async function requestsWithEntriesFrom(
  database: ConsoleDatabase,
  where: AuditWhere,
  lines: Line[],
  from: number,
): Promise<Set<string>> {
  if (lines.length === 0) return new Set();
  const rows = await entriesOfRequests(
    database,
    where,
    lines.map((line) => line.requestId),
  )
    .select('audit_event.request_id')
    .where('audit_event.id', '>=', from)
    .groupBy('audit_event.request_id')
    .execute();
  return new Set(rows.map((row) => row.request_id));
}

/** The page's lines as items: one entry, or a request's entries folded with their counts. */
async function itemsOf(database: ConsoleDatabase, where: AuditWhere, lines: Line[]): Promise<AuditItem[]> {
  const db = database.reads;
  if (lines.length === 0) return [];
  const ids = lines.map((line) => line.requestId);
  // Per request and action/outcome: bounded by the page's requests (an index on (request_id, id)).
  const outcomes = await entriesOfRequests(database, where, ids)
    .select((eb) => [
      'audit_event.request_id',
      'audit_event.action',
      'audit_event.outcome',
      eb.fn.countAll().as('entries'),
    ])
    .groupBy(['audit_event.request_id', 'audit_event.action', 'audit_event.outcome'])
    .execute();
  const entriesOf = new Map<string, number>();
  for (const row of outcomes)
    entriesOf.set(row.request_id, (entriesOf.get(row.request_id) ?? 0) + Number(row.entries));
  const singles = lines.filter((line) => (entriesOf.get(line.requestId) ?? 1) <= 1);
  const folded = lines.filter((line) => (entriesOf.get(line.requestId) ?? 1) > 1);
  const [entries, foldedEvents] = await Promise.all([
    singles.length === 0
      ? []
      : db
          .selectFrom('audit_event')
          .selectAll()
          .where(
            'id',
            'in',
            singles.map((line) => line.lastId),
          )
          .execute(),
    Promise.all(
      folded.map((line) =>
        entriesOfRequests(database, where, [line.requestId])
          .selectAll('audit_event')
          .orderBy('audit_event.id', 'desc')
          .limit(FOLDED_ENTRIES_SHOWN)
          .execute(),
      ),
    ),
  ]);
  const entryById = new Map(entries.map((event) => [event.id, event]));
  const eventsByRequest = new Map(folded.map((line, index) => [line.requestId, foldedEvents[index] ?? []]));
  return lines.flatMap((line): AuditItem[] => {
    const count = entriesOf.get(line.requestId) ?? 1;
    if (count <= 1) {
      const event = entryById.get(line.lastId);
      return event ? [{ kind: 'entry', event }] : [];
    }
    return [
      {
        kind: 'request',
        requestId: line.requestId,
        entries: count,
        outcomes: outcomes
          .filter((row) => row.request_id === line.requestId)
          .map((row) => ({ action: row.action, outcome: row.outcome, entries: Number(row.entries) })),
        events: eventsByRequest.get(line.requestId) ?? [],
      },
    ];
  });
}
