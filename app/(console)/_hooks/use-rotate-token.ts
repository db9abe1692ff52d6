import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { RotateResult } from '@/lib/console-api/contract';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Environment, slugOf } from '@/lib/environments';
import type { RotateRequest } from '@/lib/user-group-api/contract';

type Callbacks = Pick<
  UseMutationOptions<RotateResult, Error, RotateRequest>,
  'onSuccess' | 'onError' | 'onSettled'
>;

/**
 * Rotates a user group's token: the current one stops working at once. Never retried (see
 * components/providers.tsx): a second rotation would revoke the token just issued.
 */
export function useRotateToken(environment: Environment, callbacks: Callbacks = {}) {
  return useMutation({
    mutationFn: (body) =>
      callRoute(consoleRoutes.rotate, { params: { environment: slugOf[environment] }, body }),
    ...callbacks,
  });
}
