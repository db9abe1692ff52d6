import type { DeleteRequest } from '@/lib/user-group-api/contract';
import type { DeleteUserGroupFormValues } from './delete-user-group.schema';

/** Form values to the request body: the ID exactly as typed, the token trimmed. */
export function toDeleteRequest(values: DeleteUserGroupFormValues): DeleteRequest {
  return { user_group_id: values.user_group_id, current_token: values.current_token.trim() };
}
