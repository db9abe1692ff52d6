import type { AuditEvent, AuditItem } from '@/lib/audit/store';
import { AuditRow } from './audit-row';
import { FoldedRequest } from './folded-request';

type AuditTableProps =
  /** Entries, each on its row (a group's history). */
  | { events: AuditEvent[]; items?: undefined }
  /** Entries and folded requests (the audit page: a bulk job is one line until opened). */
  | { items: AuditItem[]; events?: undefined };

const headings = ['Time (UTC)', 'Operator', 'Action', 'User group', 'Outcome', 'Token', 'Request'];

/** The audit rows as a table; wide, so it scrolls sideways on small screens. */
export function AuditTable({ events, items }: AuditTableProps) {
  const lines: AuditItem[] = items ?? events.map((event) => ({ kind: 'entry', event }));
  if (lines.length === 0) {
    return <p className="text-sm text-muted-foreground">No audit entries match these filters.</p>;
  }
  // Runs of single entries share a tbody; a folded request brings its own two.
  const runs: (AuditEvent[] | Extract<AuditItem, { kind: 'request' }>)[] = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (line.kind === 'request') runs.push(line);
    else if (Array.isArray(last)) last.push(line.event);
    else runs.push([line.event]);
  }
  return (
    <section
      className="overflow-x-auto rounded-lg border border-border"
      aria-label="Audit log entries"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className="w-full min-w-[56rem] text-left text-sm">
        <thead className="bg-muted text-xs text-muted-foreground">
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2 font-medium">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        {runs.map((run) =>
          Array.isArray(run) ? (
            <tbody key={`entries-${run[0]?.id}`}>
              {run.map((event) => (
                <AuditRow key={event.id} event={event} />
              ))}
            </tbody>
          ) : (
            <FoldedRequest key={`request-${run.requestId}`} item={run} />
          ),
        )}
      </table>
    </section>
  );
}
