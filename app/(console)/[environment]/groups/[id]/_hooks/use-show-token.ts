import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { ShowTokenRequest, ShowTokenResult } from '@/lib/console-api/contract';
import { consoleRoutes } from '@/lib/console-api/routes';
import { type Environment, slugOf } from '@/lib/environments';

type Callbacks = Pick<
  UseMutationOptions<ShowTokenResult, Error, ShowTokenRequest>,
  'onSuccess' | 'onError' | 'onSettled'
>;

/**
 * Shows a group's current token: the group and its token, or `gone` when the service no longer has
 * it (the console never creates a group by looking). A POST, so the token is never in a URL.
 */
export function useShowToken(environment: Environment, callbacks: Callbacks = {}) {
  return useMutation({
    mutationFn: (body) =>
      callRoute(consoleRoutes.showToken, { params: { environment: slugOf[environment] }, body }),
    ...callbacks,
  });
}
