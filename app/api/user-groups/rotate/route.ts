import { userGroupRoute } from '@/lib/console/route-handler';
import { userGroupApi } from '@/lib/console/upstream';
import { rotateBodySchema } from '@/lib/console-api/contract';

export const POST = userGroupRoute(
  'rotate',
  rotateBodySchema,
  async (body, requestId) => {
    const { user_group } = await userGroupApi().rotate(body, requestId);
    return { user_group };
  },
  {
    request: (body) => ({ previousToken: body.current_token }),
    result: (_body, { user_group }) => ({
      userGroupId: user_group.provided_id,
      userGroupName: user_group.name,
      token: user_group.token,
    }),
  },
);
