import { parseAuditFilters } from '@/lib/audit/filters';
import { auditRead } from '@/lib/audit/server';
import { listAuditEvents } from '@/lib/audit/store';
import { consoleServer } from '@/lib/auth/server';
import { invalidRequest } from '@/lib/console/errors';
import { operatorRoute } from '@/lib/console/route-handler';

/** One page of the audit log, filtered as the audit page's query string. */
export const GET = operatorRoute('audit.list', 'audit:read', async ({ request, operator, requestId }) => {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) {
    const failure = invalidRequest(parsed.fields, 'filters');
    return { status: failure.status, body: failure.body };
  }
  const { database } = await consoleServer();
  const page = await listAuditEvents(database.db, parsed.filters);
  await auditRead('audit.read', operator, requestId, parsed.filters, page.events.length);
  return { body: page };
});
