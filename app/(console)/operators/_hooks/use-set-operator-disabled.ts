import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import type { UpdateOperatorResult } from '@/lib/console-api/operators';
import { consoleRoutes } from '@/lib/console-api/routes';

type Callbacks = Pick<UseMutationOptions<UpdateOperatorResult, Error, boolean>, 'onSuccess' | 'onError'>;

/**
 * Disables one operator (their sessions end, they cannot sign in) or enables them again, then
 * refreshes the server-rendered list of operators.
 */
export function useSetOperatorDisabled(operatorId: string, { onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: (disabled: boolean) =>
      callRoute(consoleRoutes.updateOperator, { params: { id: operatorId }, body: { disabled } }),
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
