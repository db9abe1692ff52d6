import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/audit/verify
/**
 * An admin verifies the audit chain (as `npm run audit -- verify` does), on record with what it
 * found: the entry it names, or how many entries verified.
 */
export const verifyAuditChainRoute = consoleRoute(
  {
    ...consoleRoutes.verifyAuditChain,
    audit: {
      action: 'audit.verify',
      result: (_body, report) => ({
        detail: report.firstProblem
          ? `${report.firstProblem.message} (${report.problems} in all)`
          : report.sealing
            ? `refusing to seal: ${report.sealing}`
            : `${report.entries} entries in ${report.seals} seals verified`,
      }),
    },
  },
  async ({ server }) => await server.auditChain.verify(),
);
