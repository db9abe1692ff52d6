import { ConsoleError } from '@/lib/console-api/console-error';
import { jobResultToCsv } from '@/lib/jobs/result-csv';
import { eraseResultTokens, jobResultRows } from '@/lib/jobs/store';
import { can } from '@/lib/roles';
import { audit } from '@/lib/server/audit-log';
import { accessErrors } from '@/lib/server/errors';
import { loadJob } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

/**
 * A job's result as CSV, every row's outcome. With `?tokens=1` (support and admin only, once the
 * job has ended) it carries the tokens the job produced, which are then erased from the console:
 * the file is their only copy. Every download is on record.
 */
export const GET = consoleRoute<undefined, Response, { id: string }>(
  { name: 'jobs.result', permission: 'audit:read' },
  async ({ request, params, operator, requestId, server }) => {
    const { db } = server.database;
    const { job } = await loadJob(server, params.id);
    const withTokens = new URL(request.url).searchParams.get('tokens') === '1';
    if (withTokens) {
      if (!can(operator.role, 'user-groups:reveal-token')) throw accessErrors.forbidden('download tokens');
      if (job.status !== 'finished' && job.status !== 'cancelled')
        throw new ConsoleError(
          'conflict',
          'Tokens can be downloaded once the job has finished or was cancelled.',
        );
      if (job.tokens_erased_at)
        throw new ConsoleError(
          'conflict',
          `The tokens were downloaded and erased on ${job.tokens_erased_at.slice(0, 16).replace('T', ' ')} UTC. A group's current token is on its page (Show token).`,
        );
    }
    const rows = await jobResultRows(db, job.id, withTokens ? server.jobs.vault : null);
    await audit({
      action: 'bulk.download',
      operator: { id: operator.id, email: operator.email },
      outcome: 'success',
      requestId: job.id,
      environment: job.environment,
      detail: `${withTokens ? 'with tokens (now erased)' : 'without tokens'}: ${rows.length} rows; request ${requestId}`,
    });
    const csv = jobResultToCsv(rows, withTokens);
    if (withTokens) await eraseResultTokens(db, job.id);
    const name = `${job.kind}-${job.environment.toLowerCase()}-${job.id.slice(0, 8)}${withTokens ? '-tokens' : ''}.csv`;
    return new Response(csv, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}"`,
      },
    });
  },
);
