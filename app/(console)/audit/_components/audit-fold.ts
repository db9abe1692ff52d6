/**
 * What a folded request (the entries sharing one request id: a bulk job's rows, its start, its
 * downloads) says in one line: "bulk rotate: 300 rows (298 success, 2 failed)". Plain module.
 */
import type { AuditItem } from '@/lib/audit/listing';
import { plural } from '@/lib/plural';

type FoldedRequest = Extract<AuditItem, { kind: 'request' }>;

export interface FoldSummary {
  title: string;
  /** A bulk job's entries (the request id is the job's id): its page can be linked. */
  bulk: boolean;
  /** Rows that failed (or, for a fold without rows, entries whose outcome is not success). */
  failed: number;
}

/** A row of a bulk job is a single action (rotate, get-or-create); the job's own entries are bulk.*. */
const rowActions = new Set(['rotate', 'get-or-create']);

export function summariseFold(item: FoldedRequest): FoldSummary {
  const actions = new Set(item.outcomes.map((outcome) => outcome.action));
  const bulk =
    [...actions].some((action) => action.startsWith('bulk.')) ||
    item.events.some((event) => event.detail?.startsWith('bulk job ') ?? false);
  const kind =
    actions.has('bulk.rotate') || actions.has('rotate')
      ? 'rotate'
      : actions.has('bulk.get-or-create') || actions.has('get-or-create')
        ? 'get-or-create'
        : null;
  const rows = item.outcomes.filter((outcome) => rowActions.has(outcome.action));
  const rowCount = rows.reduce((sum, outcome) => sum + outcome.entries, 0);
  const succeeded = rows
    .filter((outcome) => outcome.outcome === 'success')
    .reduce((sum, outcome) => sum + outcome.entries, 0);
  const rowFailures = rowCount - succeeded;
  // A job's rows say how it went (its own entry would count a failed row twice); without rows, its
  // entries do. A job still running has its own entry `started`: not a failure.
  const failed =
    rowCount > 0
      ? rowFailures
      : item.outcomes
          .filter((outcome) => outcome.outcome !== 'success' && outcome.outcome !== 'started')
          .reduce((sum, outcome) => sum + outcome.entries, 0);
  if (bulk && kind && rowCount > 0)
    return {
      title: `bulk ${kind}: ${plural(rowCount, 'row')} (${succeeded} success, ${rowFailures} failed)`,
      bulk,
      failed,
    };
  if (bulk) return { title: `bulk ${kind ?? 'job'}: ${plural(item.entries, 'entry')}`, bulk, failed };
  return { title: `${plural(item.entries, 'entry')} of one request`, bulk, failed };
}
