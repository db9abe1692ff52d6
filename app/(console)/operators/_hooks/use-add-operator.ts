import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import type { CreateOperatorRequest, CreateOperatorResult } from '@/lib/console-api/operators';
import { consoleRoutes } from '@/lib/console-api/routes';

type Callbacks = Pick<
  UseMutationOptions<CreateOperatorResult, Error, CreateOperatorRequest>,
  'onSuccess' | 'onError'
>;

/** Adds an operator, then refreshes the server-rendered list of operators. */
export function useAddOperator({ onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: (body: CreateOperatorRequest) => callRoute(consoleRoutes.createOperator, { body }),
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
