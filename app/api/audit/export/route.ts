import { auditEventsToCsv } from '@/lib/audit/csv';
import { parseAuditFilters } from '@/lib/audit/filters';
import { exportAuditRows } from '@/lib/audit/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';

/**
 * Every row the filters select (not just one page), as CSV, streamed a batch at a time: memory
 * stays that of one batch whatever the export's size. On record before the first row is sent; the
 * entry is completed with how many were.
 */
export const GET = consoleRoute(
  consoleRoutes.exportAudit,
  async ({ request, operator, requestId, server }) => {
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
          controller.enqueue(encoder.encode(auditEventsToCsv(next.value, { header: rows === 0 })));
          rows += next.value.length;
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
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${stamp}.csv"`,
      },
    });
  },
);
