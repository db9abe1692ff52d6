import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import type { UpdateOperatorResult } from '@/lib/console-api/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import type { Role } from '@/lib/roles';

type Callbacks = Pick<UseMutationOptions<UpdateOperatorResult, Error, Role>, 'onSuccess' | 'onError'>;

/**
 * Gives one operator another role (it applies to their next request), then refreshes the
 * server-rendered list of operators.
 */
export function useChangeOperatorRole(operatorId: string, { onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: (role: Role) =>
      callRoute(consoleRoutes.updateOperator, { params: { id: operatorId }, body: { role } }),
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
