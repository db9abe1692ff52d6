import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { DeleteResult } from '@/lib/console-api/contract';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Environment, slugOf } from '@/lib/environments';
import type { DeleteRequest } from '@/lib/user-group-api/contract';

type Callbacks = Pick<
  UseMutationOptions<DeleteResult, Error, DeleteRequest>,
  'onSuccess' | 'onError' | 'onSettled'
>;

/** Deletes a user group and its token for good. */
export function useDeleteUserGroup(environment: Environment, callbacks: Callbacks = {}) {
  return useMutation({
    mutationFn: (body) =>
      callRoute(consoleRoutes.delete, { params: { environment: slugOf[environment] }, body }),
    ...callbacks,
  });
}
