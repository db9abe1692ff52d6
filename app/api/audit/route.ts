import { parseAuditFilters } from '@/lib/audit/filters';
import { listAuditEvents } from '@/lib/audit/store';
import { consoleServer } from '@/lib/auth/server';
import { invalidRequest } from '@/lib/console/errors';
import { operatorRoute } from '@/lib/console/route-handler';

/** One page of the audit log, filtered as the audit page's query string. */
export const GET = operatorRoute('audit.list', 'audit:read', async ({ request }) => {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) {
    const failure = invalidRequest(parsed.fields, 'filters');
    return { status: failure.status, body: failure.body };
  }
  const { database } = await consoleServer();
  return { body: await listAuditEvents(database.db, parsed.filters) };
});
