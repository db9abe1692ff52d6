import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { jobResultToCsv } from '@/lib/jobs/result-csv';
import { jobResultRows } from '@/lib/jobs/store';
import { plural } from '@/lib/plural';
import { csvFile, loadJob, resultFileName } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

/**
 * A job's result as CSV, every row's outcome, without tokens: a GET, which a link or a cross-site
 * navigation may fetch, so it never carries or erases a token (POST …/tokens does). Audited.
 */
export const GET = consoleRoute(
  consoleRoutes.jobResult,
  async ({ request, params, operator, requestId, server }) => {
    if (new URL(request.url).searchParams.has('tokens')) {
      throw new ConsoleError(
        'invalid_request',
        `The result with tokens is downloaded with POST ${routePath(consoleRoutes.jobTokens, params)}, from the job's page.`,
      );
    }
    const { job } = await loadJob(server, params.id);
    const rows = await jobResultRows(server.database.db, job.id, null);
    await server.auditLog.record({
      action: 'bulk.download',
      operator: { id: operator.id, email: operator.email },
      outcome: 'success',
      requestId: job.id,
      environment: job.environment,
      detail: `without tokens: ${plural(rows.length, 'row')}; request ${requestId}`,
    });
    return csvFile(jobResultToCsv(rows, false), resultFileName(job, false));
  },
);
