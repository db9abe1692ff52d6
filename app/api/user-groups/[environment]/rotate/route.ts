import { consoleRoutes } from '@/lib/console-api/routes';
import { recordRotation } from '@/lib/directory/store';
import { userGroupRoute } from '@/lib/user-groups/route';

export const POST = userGroupRoute({
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
  directory: ({ db, environment, operatorEmail, result }) =>
    recordRotation(db, { environment, operatorEmail, group: result.user_group }),
});
