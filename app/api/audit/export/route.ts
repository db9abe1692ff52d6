import { auditEventsToCsv } from '@/lib/audit/csv';
import { parseAuditFilters } from '@/lib/audit/filters';
import { auditRead } from '@/lib/audit/server';
import { exportAuditEvents } from '@/lib/audit/store';
import { consoleServer } from '@/lib/auth/server';
import { invalidRequest } from '@/lib/console/errors';
import { operatorRoute } from '@/lib/console/route-handler';

/** Every row the filters select (not just one page), as CSV. */
export const GET = operatorRoute('audit.export', 'audit:read', async ({ request, operator, requestId }) => {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) {
    const failure = invalidRequest(parsed.fields, 'filters');
    return { status: failure.status, body: failure.body };
  }
  const { database } = await consoleServer();
  const events = await exportAuditEvents(database.db, parsed.filters);
  await auditRead('audit.export', operator, requestId, parsed.filters, events.length);
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return new Response(auditEventsToCsv(events), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-log-${stamp}.csv"`,
      'x-audit-rows': String(events.length),
    },
  });
});
