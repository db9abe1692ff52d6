import { consoleRoutes } from '@/lib/console-api/routes';
import { recordGetOrCreate } from '@/lib/directory/store';
import { userGroupRoute } from '@/lib/user-groups/route';

export const POST = userGroupRoute({
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
  directory: ({ db, environment, operatorEmail, body, result }) =>
    recordGetOrCreate(db, {
      environment,
      operatorEmail,
      isNew: result.new_user_group,
      group: result.user_group,
      mappingSent: body.mapping,
    }),
});
