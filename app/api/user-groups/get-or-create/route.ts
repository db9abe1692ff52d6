import { getOrCreateBodySchema } from '@/lib/console-api/contract';
import { userGroupRoute } from '@/lib/server/user-group-route';

export const POST = userGroupRoute(
  'get-or-create',
  getOrCreateBodySchema,
  async (api, body, requestId) => {
    const { new_user_group, user_group } = await api.getOrCreate(body, requestId);
    return { new_user_group, user_group };
  },
  {
    request: (body) => ({ userGroupId: body.user_group_id, userGroupName: body.name ?? null }),
    result: (_body, { user_group }) => ({
      userGroupId: user_group.provided_id,
      userGroupName: user_group.name,
      token: user_group.token,
    }),
  },
);
