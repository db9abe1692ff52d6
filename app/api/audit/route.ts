import { readAuditPage } from '@/lib/audit/server';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/** One page of the audit log (lib/audit/server.ts). */
export const GET = consoleRoute(consoleRoutes.readAudit, readAuditPage);
