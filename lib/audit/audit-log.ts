import 'server-only';
import type { Logger } from 'pino';
import { type AuditCursor, type AuditFilters, auditFiltersQuery } from '@/lib/audit/filters';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import {
  type AuditEntry,
  type AuditSettlement,
  recordAuditEvent,
  recordAuditEvents,
  settleAuditEvent,
} from '@/lib/audit/store';
import type { Clock } from '@/lib/clock';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { ConsoleMetrics } from '@/lib/metrics/console-metrics';
import { plural } from '@/lib/plural';
import { auditUnavailable } from '@/lib/server/errors';
import { looksLikeToken } from '@/lib/tokens/contract';

/**
 * The audit log of the console database, as route handlers and helpers use it: built once by the
 * console's server (lib/server/index.ts) from its database, and handed to them with the server.
 */
export interface AuditLog {
  record(entry: AuditEntry): Promise<number>;
  /** Many entries at once (one per token a bulk job looked up), failing closed like `record`. */
  recordMany(entries: AuditEntry[]): Promise<void>;
  settle(id: number, settlement: AuditSettlement, requestId: string): Promise<void>;
  /**
   * Runs an action on record, the one way an action is: its entry is written first (`started`;
   * nothing runs when it cannot be written), then settled with the outcome, or with the refusal's
   * code. The route frame (lib/server/route.ts) runs every audited route through it; helpers that
   * write an entry of their own (an invitation, a session ended at the proof limit) too.
   */
  audited<T>(
    entry: Omit<AuditEntry, 'outcome'>,
    run: (entryId: number) => Promise<T>,
    settle?: Settling<T>,
  ): Promise<T>;
  /**
   * An export on record before its first row leaves: the entry is written `started` (nothing is
   * sent when it cannot be), and the answer settles it with the rows sent, once the stream ends.
   */
  exporting(
    operator: { id: string; email: string },
    requestId: string,
    filters: AuditFilters,
  ): Promise<(sent: { rows: number; failed?: boolean }) => Promise<void>>;
  read(
    action: 'audit.read',
    operator: { id: string; email: string },
    requestId: string,
    filters: AuditFilters,
    rows: number,
    /** A page opened by a link on another site: the entry says so (the person did see it). */
    fromAnotherSite?: boolean,
  ): Promise<void>;
}

/** What the log stamps its entries with and reports its own failures to: handed down by the composition root. */
interface Log {
  db: ConsoleDb;
  clock: Pick<Clock, 'now'>;
  metrics: Pick<ConsoleMetrics, 'auditWriteFailures'>;
  logger: Pick<Logger, 'error'>;
}

export function createAuditLog(db: ConsoleDb, deps: Omit<Log, 'db'>): AuditLog {
  const log: Log = { db, ...deps };
  return {
    record: (entry) => audit(log, entry),
    recordMany: (entries) => auditMany(log, entries),
    settle: (id, settlement, requestId) => settleAudit(log, id, settlement, requestId),
    audited: (entry, run, settle) => audited(log, entry, run, settle),
    exporting: (operator, requestId, filters) => auditExport(log, operator, requestId, filters),
    read: (action, operator, requestId, filters, rows, fromAnotherSite = false) =>
      auditRead(log, action, operator, requestId, filters, rows, fromAnotherSite),
  };
}

/**
 * Writes one audit entry on the console database, failing closed: when the entry cannot be
 * written, this throws (503 audit_unavailable), and the caller answers without doing (or without
 * revealing) what the entry was to record. Answers the entry's id.
 */
async function audit(log: Log, entry: AuditEntry): Promise<number> {
  return failingClosed(log, entry, () => recordAuditEvent(log.db, stamped(log, entry), log.clock));
}

/** Every entry carries the log's clock's time, not the process's: a test's clock is the one read. */
const stamped = (log: Log, entry: AuditEntry): AuditEntry => ({
  ...entry,
  at: entry.at ?? new Date(log.clock.now()),
});

/** Many entries, all or none (one transaction), failing closed like one. */
async function auditMany(log: Log, entries: AuditEntry[]): Promise<void> {
  const [first] = entries;
  if (!first) return;
  await failingClosed(log, first, () =>
    log.db.transaction().execute((trx) =>
      recordAuditEvents(
        trx,
        entries.map((entry) => stamped(log, entry)),
        log.clock,
      ),
    ),
  );
}

/** A write of the log that cannot happen is counted, logged by name only, and answered 503. */
async function failingClosed<T>(
  { metrics, logger }: Log,
  entry: AuditEntry,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    metrics.auditWriteFailures.inc({ stage: 'record' });
    logger.error(
      { action: entry.action, requestId: entry.requestId, err: { name: (error as Error)?.name } },
      'could not write the audit log',
    );
    throw auditUnavailable(entry.requestId);
  }
}

/**
 * Completes an entry written before its action ran. The action has happened by now (a token may
 * have been issued, which must reach the person), and the entry already records the attempt: a
 * failure here is logged, not thrown.
 */
async function settleAudit(
  { db, clock, metrics, logger }: Log,
  id: number,
  settlement: AuditSettlement,
  requestId: string,
): Promise<void> {
  try {
    await settleAuditEvent(db, id, settlement, clock);
  } catch (error) {
    metrics.auditWriteFailures.inc({ stage: 'settle' });
    logger.error({ requestId, err: { name: (error as Error)?.name } }, 'could not complete an audit entry');
  }
}

/** How an audited action's entry is settled; by default `success`, or the refusal's code. */
interface Settling<T> {
  /** Null leaves the entry `started`, for whoever ends the action (a started job's runner). */
  settled?: (result: T) => AuditSettlement | null;
  refused?: (code: string) => AuditSettlement;
}

async function audited<T>(
  log: Log,
  entry: Omit<AuditEntry, 'outcome'>,
  run: (entryId: number) => Promise<T>,
  { settled = () => ({ outcome: 'success' }), refused = (code) => ({ outcome: code }) }: Settling<T> = {},
): Promise<T> {
  const id = await audit(log, { ...entry, outcome: 'started' });
  let result: T;
  try {
    result = await run(id);
  } catch (error) {
    await settleAudit(
      log,
      id,
      refused(error instanceof ConsoleError ? error.code : 'internal'),
      entry.requestId,
    );
    throw error;
  }
  const settlement = settled(result);
  if (settlement) await settleAudit(log, id, settlement, entry.requestId);
  return result;
}

const withoutToken = (value: string | undefined) =>
  value && looksLikeToken(value) ? `fingerprint:${tokenFingerprint(value)}` : value;

/** The filters as the entry keeps them: a token pasted into one (or a group page opened by one) as its fingerprint. */
function recordedQuery(filters: AuditFilters, cursor: AuditCursor): string {
  const recorded = {
    ...filters,
    operator: withoutToken(filters.operator),
    group: withoutToken(filters.group),
  };
  return auditFiltersQuery(recorded, cursor);
}

/** Reading the log is itself on record: who, which filters, how many rows. */
async function auditRead(
  log: Log,
  action: 'audit.read',
  operator: { id: string; email: string },
  requestId: string,
  filters: AuditFilters,
  rows: number,
  fromAnotherSite: boolean,
): Promise<void> {
  const query = recordedQuery(filters, filters);
  const detail = `${plural(rows, 'row')}${query ? `; ${query}` : ''}${fromAnotherSite ? '; opened from a link on another site' : ''}`;
  if (await readThisMinute(log, operator.email, detail)) return;
  await audit(log, {
    action,
    operator: { id: operator.id, email: operator.email },
    outcome: 'success',
    requestId,
    detail,
  });
}

async function auditExport(
  log: Log,
  operator: { id: string; email: string },
  requestId: string,
  filters: AuditFilters,
): Promise<(sent: { rows: number; failed?: boolean }) => Promise<void>> {
  const query = recordedQuery(filters, {});
  const id = await audit(log, {
    action: 'audit.export',
    operator: { id: operator.id, email: operator.email },
    outcome: 'started',
    requestId,
    detail: query || null,
  });
  return ({ rows, failed = false }) =>
    settleAudit(
      log,
      id,
      {
        outcome: failed ? 'internal' : 'success',
        detail: `${plural(rows, 'row')}${query ? `; ${query}` : ''}`,
      },
      requestId,
    );
}

/**
 * The same read by the same person in the same minute is on record once: a page reloaded or
 * rendered again (and every group page opened writes one) would otherwise make the log mostly
 * reads. Looked for among the person's last few entries, which an index keeps at hand.
 */
async function readThisMinute({ db, clock }: Log, operatorEmail: string, detail: string): Promise<boolean> {
  const minute = new Date(clock.now()).toISOString().slice(0, 16);
  const recent = await db
    .selectFrom('audit_event')
    .select(['action', 'at', 'detail'])
    .where('operator_email', '=', operatorEmail)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return recent.some(
    (entry) => entry.action === 'audit.read' && entry.at.startsWith(minute) && entry.detail === detail,
  );
}
