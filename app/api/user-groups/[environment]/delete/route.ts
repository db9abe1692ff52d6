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
  // The token it presents is sealed while the request waits: the approver never sees it.
  approval: {
    action: () => 'delete',
    subject: (body) => `user group ${body.user_group_id}`,
    secretFields: ['current_token'],
  },
  directory: ({ db, environment, operatorEmail, body }) =>
    recordDeletion(db, { environment, operatorEmail, userGroupId: body.user_group_id }),
});
