import { consoleRoutes } from '@/lib/console-api/routes';
import { parseDirectoryQuery } from '@/lib/directory/contract';
import { searchDirectory } from '@/lib/directory/search';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';

/**
 * One page of an environment's directory, searched by id or name: ids, names and token
 * fingerprints, never tokens, so viewers may read it too.
 */
export const GET = consoleRoute(consoleRoutes.directorySearch, async ({ request, environment, server }) => {
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
});
