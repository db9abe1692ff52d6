import { exportAuditLog } from '@/lib/audit/server';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/** The audit log as CSV, streamed (lib/audit/server.ts). */
export const GET = consoleRoute(consoleRoutes.exportAudit, exportAuditLog);
