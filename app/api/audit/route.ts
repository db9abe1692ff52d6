import { parseAuditFilters } from '@/lib/audit/filters';
import { listAuditEvents } from '@/lib/audit/store';
import { consoleRoutes } from '@/lib/console-api/routes';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';

/** One page of the audit log, filtered as the audit page's query string. */
export const GET = consoleRoute(consoleRoutes.readAudit, async ({ request, operator, requestId, server }) => {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) throw invalidRequest(parsed.fields, 'filters');
  const page = await listAuditEvents(server.database, parsed.filters);
  await server.auditLog.read('audit.read', operator, requestId, parsed.filters, page.events.length);
  return page;
});
