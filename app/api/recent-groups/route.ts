import { listRecentGroups } from '@/lib/audit/store';
import { consoleRoute } from '@/lib/server/route';

/** The user groups opened lately, newest first: ids and names, never tokens. */
export const GET = consoleRoute(
  { name: 'recent-groups.list', permission: 'audit:read' },
  async ({ server }) => ({
    groups: await listRecentGroups(server.database.db),
  }),
);
