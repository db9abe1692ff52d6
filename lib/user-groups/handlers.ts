import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { recordDeletion, recordGetOrCreate, recordRotation } from '@/lib/directory/store';
import { consoleRoute } from '@/lib/server/route';
import { userGroupRoute } from './route';
import { showToken, showTokenAudit } from './show-token';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/user-groups/[environment]/get-or-create
export const getOrCreateRoute = userGroupRoute({
  operation: 'get-or-create',
  route: consoleRoutes.getOrCreate,
  call: async (api, body, requestId) => {
    const { new_user_group, user_group } = await api.getOrCreate(body, requestId);
    return { new_user_group, user_group };
  },
  audit: {
    request: (body) => ({ userGroupId: body.user_group_id, userGroupName: body.name ?? null }),
    result: (_body, { user_group }) => ({
      userGroupId: user_group.provided_id,
      userGroupName: user_group.name,
      token: user_group.token,
    }),
  },
  directory: ({ db, clock, environment, operatorEmail, body, result }) =>
    recordGetOrCreate(
      db,
      {
        environment,
        operatorEmail,
        isNew: result.new_user_group,
        group: result.user_group,
        mappingSent: body.mapping,
      },
      clock,
    ),
});

// /api/user-groups/[environment]/rotate
export const rotateRoute = userGroupRoute({
  operation: 'rotate',
  route: consoleRoutes.rotate,
  call: async (api, body, requestId) => {
    const { user_group } = await api.rotate(body, requestId);
    return { user_group };
  },
  audit: {
    request: (body) => ({ previousToken: body.current_token }),
    result: (_body, { user_group }) => ({
      userGroupId: user_group.provided_id,
      userGroupName: user_group.name,
      token: user_group.token,
    }),
  },
  directory: ({ db, clock, environment, operatorEmail, result }) =>
    recordRotation(db, { environment, operatorEmail, group: result.user_group }, clock),
});

// /api/user-groups/[environment]/delete
export const deleteRoute = userGroupRoute({
  operation: 'delete',
  route: consoleRoutes.delete,
  call: async (api, body, requestId) => {
    await api.deleteUserGroup(body, requestId);
    return { deleted: true as const, user_group_id: body.user_group_id };
  },
  audit: {
    request: (body) => ({ userGroupId: body.user_group_id, previousToken: body.current_token }),
    result: () => ({}),
  },
  // The token it presents is sealed while the request waits: the approver never sees it.
  approval: {
    action: () => 'delete',
    subject: (body) => `user group ${body.user_group_id}`,
    secretFields: ['current_token'],
  },
  directory: ({ db, clock, environment, operatorEmail, body }) =>
    recordDeletion(db, { environment, operatorEmail, userGroupId: body.user_group_id }, clock),
});

// /api/user-groups/[environment]/show-token
/** Show token on a group's page: its current token, or `gone`; never a group created by looking. */
export const showTokenRoute = consoleRoute(
  { ...consoleRoutes.showToken, audit: showTokenAudit },
  ({ body, server, environment, operator, requestId }) =>
    showToken({ server, environment, operator, requestId, userGroupId: body.user_group_id }),
);
