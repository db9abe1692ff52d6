import { userGroupRoute } from '@/lib/console/route-handler';
import { userGroupApi } from '@/lib/console/upstream';
import { getOrCreateBodySchema } from '@/lib/console-api/contract';

export const POST = userGroupRoute('get-or-create', getOrCreateBodySchema, async (body, requestId) => {
  const { new_user_group, user_group } = await userGroupApi().getOrCreate(body, requestId);
  return { new_user_group, user_group };
});
