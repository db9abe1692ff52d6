import { rotateBodySchema } from '@/lib/console-api/contract';
import { userGroupRoute } from '@/lib/server/user-group-route';

export const POST = userGroupRoute(
  'rotate',
  rotateBodySchema,
  async (api, body, requestId) => {
    const { user_group } = await api.rotate(body, requestId);
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
