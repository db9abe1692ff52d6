import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { showToken, showTokenAudit } from '@/lib/user-groups/show-token';

/** Show token on a group's page: its current token, or `gone`; never a group created by looking. */
export const POST = consoleRoute(
  { ...consoleRoutes.showToken, audit: showTokenAudit },
  ({ body, server, environment, operator, requestId }) =>
    showToken({ server, environment, operator, requestId, userGroupId: body.user_group_id }),
);
