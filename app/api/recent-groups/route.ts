import { listRecentGroups } from '@/lib/audit/store';
import { consoleServer } from '@/lib/auth/server';
import { operatorRoute } from '@/lib/console/route-handler';

/** The user groups opened lately, newest first: ids and names, never tokens. */
export const GET = operatorRoute('recent-groups.list', 'audit:read', async () => {
  const { database } = await consoleServer();
  return { body: { groups: await listRecentGroups(database.db) } };
});
