import { userGroupRoute } from '@/lib/console/route-handler';
import { userGroupApi } from '@/lib/console/upstream';
import { rotateBodySchema } from '@/lib/console-api/contract';

export const POST = userGroupRoute('rotate', rotateBodySchema, async (body, requestId) => {
  const { user_group } = await userGroupApi().rotate(body, requestId);
  return { user_group };
});
