import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { exportAuditLog, readAuditPage } from './server';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/audit
/** One page of the audit log (./server.ts), the read itself on record. */
export const readAuditRoute = consoleRoute(consoleRoutes.readAudit, readAuditPage);

// /api/audit/export
/** The audit log as CSV, streamed (./server.ts), on record before the first row is sent. */
export const exportAuditRoute = consoleRoute(consoleRoutes.exportAudit, exportAuditLog);
