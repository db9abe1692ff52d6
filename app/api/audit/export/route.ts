import { auditEventsToCsv } from '@/lib/audit/csv';
import { parseAuditFilters } from '@/lib/audit/filters';
import { exportAuditEvents } from '@/lib/audit/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';

/** Every row the filters select (not just one page), as CSV. */
export const GET = consoleRoute(
  consoleRoutes.exportAudit,
  async ({ request, operator, requestId, server }) => {
    const parsed = parseAuditFilters(new URL(request.url).searchParams);
    if (!parsed.success) throw invalidRequest(parsed.fields, 'filters');
    const events = await exportAuditEvents(server.database.db, parsed.filters);
    await server.auditLog.read('audit.export', operator, requestId, parsed.filters, events.length);
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return new Response(auditEventsToCsv(events), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${stamp}.csv"`,
        'x-audit-rows': String(events.length),
      },
    });
  },
);
