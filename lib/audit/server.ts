import 'server-only';
import { randomUUID } from 'node:crypto';
import type { ConsoleServer, Operator } from '@/lib/server';
import { invalidRequest } from '@/lib/server/errors';
import { auditEventsToCsv } from './csv';
import { type AuditFilters, parseAuditFilters } from './filters';
import { exportAuditRows, listAuditEvents } from './store';

/** What the frame hands a read of the log (lib/server/route.ts's RouteContext, the fields used). */
interface AuditRequest {
  request: Request;
  operator: Pick<Operator, 'id' | 'email'>;
  requestId: string;
  server: Pick<ConsoleServer, 'auditLog' | 'database' | 'clock'>;
}

/**
 * A page's read of the log on record (the audit page, a group's history): the one read a page makes,
 * so that no page writes an entry itself. Throws audit_unavailable when it cannot be written.
 */
export function recordAuditRead(
  server: Pick<ConsoleServer, 'auditLog'>,
  operator: Pick<Operator, 'id' | 'email'>,
  read: { filters: AuditFilters; rows: number; fromAnotherSite?: boolean },
): Promise<void> {
  return server.auditLog.read(
    'audit.read',
    operator,
    randomUUID(),
    read.filters,
    read.rows,
    read.fromAnotherSite,
  );
}

/** One page of the audit log, filtered as the audit page's query string; the read itself on record. */
export async function readAuditPage({ request, operator, requestId, server }: AuditRequest) {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) throw invalidRequest(parsed.fields, 'filters');
  const page = await listAuditEvents(server.database, parsed.filters);
  await server.auditLog.read('audit.read', operator, requestId, parsed.filters, page.events.length);
  return page;
}

/**
 * Rows per piece of an export's CSV text. V8 makes a string of more than 128 kB in its old
 * generation, where it waits for a full collection: a batch's text in one piece (1,000 rows, about
 * 150 kB) was, and an export of 86,000 rows left some 13 MB there each time. A hundred rows, about
 * 15 kB of usual entries, stay far under it.
 */
export const CSV_PIECE_ROWS = 100;

/**
 * Every row the filters select (not just one page), as CSV, streamed a batch at a time: memory
 * stays that of one batch whatever the export's size. On record before the first row is sent; the
 * entry is completed with how many were.
 */
export async function exportAuditLog({
  request,
  operator,
  requestId,
  server,
}: AuditRequest): Promise<Response> {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) throw invalidRequest(parsed.fields, 'filters');
  const sent = await server.auditLog.exporting(operator, requestId, parsed.filters);
  const batches = exportAuditRows(server.database, parsed.filters);
  const encoder = new TextEncoder();
  let rows = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          if (rows === 0) controller.enqueue(encoder.encode(auditEventsToCsv([])));
          controller.close();
          await sent({ rows });
          return;
        }
        const batch = next.value;
        for (let start = 0; start < batch.length; start += CSV_PIECE_ROWS) {
          const piece = batch.slice(start, start + CSV_PIECE_ROWS);
          controller.enqueue(encoder.encode(auditEventsToCsv(piece, { header: rows === 0 && start === 0 })));
        }
        rows += batch.length;
      } catch (error) {
        controller.error(error);
        await sent({ rows, failed: true });
      }
    },
    async cancel() {
      await batches.return(undefined);
      await sent({ rows, failed: true });
    },
  });
  const stamp = new Date(server.clock.now())
    .toISOString()
    .slice(0, 16)
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-log-${stamp}.csv"`,
    },
  });
}
