import { userGroupRoute } from '@/lib/console/route-handler';
import { userGroupApi } from '@/lib/console/upstream';
import { getOrCreateBodySchema } from '@/lib/console-api/contract';

export const POST = userGroupRoute(
  'get-or-create',
  getOrCreateBodySchema,
  async (body, requestId) => {
    const { new_user_group, user_group } = await userGroupApi().getOrCreate(body, requestId);
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
