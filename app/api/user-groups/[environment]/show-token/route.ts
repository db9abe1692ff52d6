import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { showToken, showTokenAudit } from '@/lib/server/show-token';
import { environmentRoute } from '@/lib/server/user-group-route';

/** Show token on a group's page: its current token, or `gone`; never a group created by looking. */
export const POST = environmentRoute(consoleRoutes.showToken.name, (environment) =>
  consoleRoute(
    { ...consoleRoutes.showToken, audit: showTokenAudit(environment) },
    ({ body, server, operator, requestId }) =>
      showToken({ server, environment, operator, requestId, userGroupId: body.user_group_id }),
  ),
);
