import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

/**
 * An admin verifies the audit chain (as `npm run audit -- verify` does), on record with what it
 * found: the entry it names, or how many entries verified.
 */
export const POST = consoleRoute(
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
