import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { rotationPreview, rotationPreviewToCsv } from '@/lib/jobs/rotation-preview';
import { plural } from '@/lib/plural';
import { csvFile, loadJob } from '@/lib/server/jobs';
import { consoleRoute } from '@/lib/server/route';

/**
 * Every group a rotation job will rotate, as CSV: line, id, name and the fingerprint of the token
 * to replace (a pasted token's group as the directory knows it, or "not known to the console").
 * No token, so a GET any operator may follow; audited as a download.
 */
export const GET = consoleRoute(consoleRoutes.jobPreview, async ({ params, operator, requestId, server }) => {
  const { job } = await loadJob(server, params.id);
  if (job.kind !== 'rotate')
    throw new ConsoleError('not_found', 'Only a rotation job lists the groups it will rotate.');
  const preview = await rotationPreview(server.database.db, server.jobs.vault, job);
  await server.auditLog.record({
    action: 'bulk.download',
    operator: { id: operator.id, email: operator.email },
    outcome: 'success',
    requestId: job.id,
    environment: job.environment,
    detail: `preview: ${plural(preview.total, 'row')}; request ${requestId}`,
  });
  return csvFile(
    rotationPreviewToCsv(preview.rows),
    `rotate-preview-${job.environment.toLowerCase()}-${job.id.slice(0, 8)}.csv`,
  );
});
