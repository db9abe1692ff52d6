import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { jobResultToCsv } from '@/lib/jobs/result-csv';
import { claimResultTokens } from '@/lib/jobs/store';
import { plural } from '@/lib/plural';
import { csvFile, loadJob, requireJobStepUp, resultFileName, tokenDownloadRefusal } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

const utc = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A finished job's result with the tokens it produced, handed out once: the console then erases
 * them, and the file is their only copy. A POST (the route wrapper refuses other origins), so a
 * link on another site can neither take nor erase them; only the job's owner or an admin may. The
 * entry is on record before the tokens are taken, and settled with who got them.
 */
export const POST = consoleRoute(consoleRoutes.jobTokens, async ({ params, operator, requestId, server }) => {
  const { db } = server.database;
  const { job } = await loadJob(server, params.id);
  const entry = (outcome: string) =>
    server.auditLog.record({
      action: 'bulk.download',
      operator: { id: operator.id, email: operator.email },
      outcome,
      requestId: job.id,
      environment: job.environment,
      detail: `with tokens; request ${requestId}`,
    });
  const refusal = tokenDownloadRefusal(operator, job);
  if (refusal) {
    await entry('forbidden');
    throw new ConsoleError('forbidden', refusal);
  }
  await requireJobStepUp(server, operator, job, entry);
  if (job.status !== 'finished' && job.status !== 'cancelled')
    throw new ConsoleError(
      'conflict',
      'Tokens can be downloaded once the job has finished or was cancelled.',
    );
  const entryId = await entry('started');
  const claim = await claimResultTokens(db, job.id, server.jobs.vault, operator.email).catch(
    async (error: unknown) => {
      await server.auditLog.settle(entryId, { outcome: 'internal' }, requestId);
      throw error;
    },
  );
  if ('settling' in claim) {
    await server.auditLog.settle(entryId, { outcome: 'conflict' }, requestId);
    throw new ConsoleError(
      'conflict',
      'The job is still settling the rows it had sent when it stopped: download the tokens in a few seconds.',
    );
  }
  if (!('rows' in claim)) {
    await server.auditLog.settle(entryId, { outcome: 'conflict' }, requestId);
    throw new ConsoleError(
      'conflict',
      `The tokens were downloaded and erased on ${utc(claim.takenAt)}${claim.takenBy ? ` by ${claim.takenBy}` : ''}. A group’s current token is on its page (Show token).`,
    );
  }
  await server.auditLog.settle(
    entryId,
    {
      outcome: 'success',
      detail: `with tokens (now erased): ${plural(claim.rows.length, 'row')}; request ${requestId}`,
    },
    requestId,
  );
  return csvFile(jobResultToCsv(claim.rows, true), resultFileName(job, true));
});
