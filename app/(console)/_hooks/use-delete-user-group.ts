import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { consoleApi } from '@/lib/console-api/client';
import type { DeleteResult } from '@/lib/console-api/contract';
import type { DeleteRequest } from '@/lib/user-group-api/contract';

type Callbacks = Pick<
  UseMutationOptions<DeleteResult, Error, DeleteRequest>,
  'onSuccess' | 'onError' | 'onSettled'
>;

/** Deletes a user group and its token for good. */
export function useDeleteUserGroup(callbacks: Callbacks = {}) {
  return useMutation({ mutationFn: consoleApi.deleteUserGroup, ...callbacks });
}
