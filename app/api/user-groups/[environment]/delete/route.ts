import { consoleRoutes } from '@/lib/console-api/routes';
import { recordDeletion } from '@/lib/directory/store';
import { userGroupRoute } from '@/lib/user-groups/route';

export const POST = userGroupRoute({
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
  directory: ({ db, environment, operatorEmail, body }) =>
    recordDeletion(db, { environment, operatorEmail, userGroupId: body.user_group_id }),
});
