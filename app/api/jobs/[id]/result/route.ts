import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { jobResultFile } from '@/lib/jobs/files';
import { downloadNamed, filedUnderJob, jobRoute, namingNote } from '@/lib/jobs/server';
import { consoleRoute } from '@/lib/server/route';

/**
 * A job's result as CSV, every row's outcome, without tokens: a GET, which a link or a cross-site
 * navigation may fetch, so it never carries or erases a token (POST …/tokens does). Audited.
 */
export const GET = consoleRoute(
  {
    ...consoleRoutes.jobResult,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Result', job, 'without tokens') }),
      filedUnder: filedUnderJob,
    },
  },
  async ({ request, params, subject, server, note }) => {
    if (new URL(request.url).searchParams.has('tokens'))
      throw new ConsoleError(
        'invalid_request',
        `The result with tokens is downloaded with POST ${routePath(consoleRoutes.jobTokens, params)}, from the job's page.`,
      );
    return jobResultFile(server, subject, namingNote('Result', subject, note));
  },
);
