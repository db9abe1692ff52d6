import { parseAuditFilters } from '@/lib/audit/filters';
import { listAuditEvents } from '@/lib/audit/store';
import { consoleServer } from '@/lib/auth/server';
import { consoleFailure } from '@/lib/console/errors';
import { operatorRoute } from '@/lib/console/route-handler';
import { describeFieldErrors } from '@/lib/validation/field-errors';

/** One page of the audit log, filtered as the audit page's query string. */
export const GET = operatorRoute('audit.list', 'audit:read', async ({ request }) => {
  const parsed = parseAuditFilters(new URL(request.url).searchParams);
  if (!parsed.success) {
    const failure = consoleFailure(
      400,
      'invalid_request',
      `Check the filters: ${describeFieldErrors(parsed.fields)}.`,
      {
        fields: parsed.fields,
      },
    );
    return { status: failure.status, body: failure.body };
  }
  const { database } = await consoleServer();
  return { body: await listAuditEvents(database.db, parsed.filters) };
});
