import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';
import { parseDirectoryQuery } from './contract';
import { searchDirectory } from './search';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/user-groups/[environment]
/**
 * One page of an environment's directory, searched by id or name: ids, names and token
 * fingerprints, never tokens, so viewers may read it too.
 */
export const directorySearchRoute = consoleRoute(
  consoleRoutes.directorySearch,
  async ({ request, environment, server }) => {
    const parsed = parseDirectoryQuery(new URL(request.url).searchParams);
    if (!parsed.success) throw invalidRequest(parsed.fields, 'search');
    const { q, sort, order, page, pageSize } = parsed.query;
    return searchDirectory(server.database, {
      environment,
      search: q,
      sort,
      descending: order === undefined ? undefined : order === 'desc',
      page,
      pageSize,
    });
  },
);
