import { deleteBodySchema } from '@/lib/console-api/contract';
import { userGroupRoute } from '@/lib/server/user-group-route';

export const POST = userGroupRoute(
  'delete',
  deleteBodySchema,
  async (api, body, requestId) => {
    await api.deleteUserGroup(body, requestId);
    return { deleted: true as const, user_group_id: body.user_group_id };
  },
  {
    request: (body) => ({ userGroupId: body.user_group_id, previousToken: body.current_token }),
    result: () => ({}),
  },
);
