import { userGroupRoute } from '@/lib/console/route-handler';
import { userGroupApi } from '@/lib/console/upstream';
import { deleteBodySchema } from '@/lib/console-api/contract';

export const POST = userGroupRoute(
  'delete',
  deleteBodySchema,
  async (body, requestId) => {
    await userGroupApi().deleteUserGroup(body, requestId);
    return { deleted: true as const, user_group_id: body.user_group_id };
  },
  {
    request: (body) => ({ userGroupId: body.user_group_id, previousToken: body.current_token }),
    result: () => ({}),
  },
);
