import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { GetOrCreateResult } from '@/lib/console-api/contract';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Environment, slugOf } from '@/lib/environments';
import type { GetOrCreateRequest } from '@/lib/user-group-api/contract';

type Callbacks = Pick<
  UseMutationOptions<GetOrCreateResult, Error, GetOrCreateRequest>,
  'onSuccess' | 'onError' | 'onSettled'
>;

/**
 * Gets or creates a user group. Nothing cached changes: the directory is read on the server at the
 * next load of its page.
 */
export function useGetOrCreateUserGroup(environment: Environment, callbacks: Callbacks = {}) {
  return useMutation({
    mutationFn: (body) =>
      callRoute(consoleRoutes.getOrCreate, { params: { environment: slugOf[environment] }, body }),
    ...callbacks,
  });
}
