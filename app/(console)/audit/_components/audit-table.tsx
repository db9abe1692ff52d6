import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { AuditItem } from '@/lib/audit/listing';
import type { AuditEvent } from '@/lib/audit/store';
import { AuditRow, auditColumns } from './audit-row';
import { FoldedRequest } from './folded-request';

type AuditTableProps =
  /** Entries, each on its row (a group's history). */
  | { events: AuditEvent[]; items?: undefined }
  /** Entries and folded requests (the audit page: a bulk job is one line until opened). */
  | { items: AuditItem[]; events?: undefined };

/** The audit rows as a table; wide, so it scrolls sideways on a tablet, and is stacked rows on a phone. */
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
    <Table label="Audit log entries" regionClassName="bg-transparent" className="min-w-[56rem]">
      <TableHeader className="border-0 bg-muted">
        <TableRow>
          {Object.values(auditColumns).map((heading) => (
            <TableHead key={heading}>{heading}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      {runs.map((run) =>
        Array.isArray(run) ? (
          <TableBody key={`entries-${run[0]?.id}`}>
            {run.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
          </TableBody>
        ) : (
          <FoldedRequest key={`request-${run.requestId}`} item={run} />
        ),
      )}
    </Table>
  );
}
