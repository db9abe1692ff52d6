import { consoleRoutes } from '@/lib/console-api/routes';
import { rotationPreviewFile } from '@/lib/jobs/files';
import { downloadNamed, filedUnderJob, jobRoute, namingNote } from '@/lib/jobs/server';
import { consoleRoute } from '@/lib/server/route';

/**
 * Every group a rotation job will rotate, as CSV: line, id, name and the fingerprint of the token
 * to replace (a pasted token's group as the directory knows it, or "not known to the console").
 * No token, so a GET any operator may follow; audited as a download.
 */
export const GET = consoleRoute(
  {
    ...consoleRoutes.jobPreview,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Preview', job, 'the groups to rotate') }),
      filedUnder: filedUnderJob,
    },
  },
  ({ subject, server, note }) => rotationPreviewFile(server, subject, namingNote('Preview', subject, note)),
);
