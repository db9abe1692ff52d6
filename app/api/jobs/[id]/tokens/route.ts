import { consoleRoutes } from '@/lib/console-api/routes';
import { takeJobTokens } from '@/lib/jobs/files';
import { downloadNamed, filedUnderJob, jobRoute, namingNote } from '@/lib/jobs/server';
import { consoleRoute } from '@/lib/server/route';

/**
 * A finished job's result with the tokens it produced, handed out once, then erased. A POST (the
 * route frame refuses other origins), so a link on another site can neither take nor erase them.
 * The entry is on record before the tokens are taken, and settled with how many rows went.
 */
export const POST = consoleRoute(
  {
    ...consoleRoutes.jobTokens,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Result', job, 'with tokens') }),
      filedUnder: filedUnderJob,
    },
  },
  ({ operator, subject, server, note }) =>
    takeJobTokens(server, operator, subject, namingNote('Result', subject, note)),
);
