import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { UpdateOperatorResult } from '@/lib/auth/operators.schema';
import { operatorsApi } from './operators-api';

type Callbacks = Pick<UseMutationOptions<UpdateOperatorResult, Error, boolean>, 'onSuccess' | 'onError'>;

/**
 * Disables one operator (their sessions end, they cannot sign in) or enables them again, then
 * refreshes the server-rendered list of operators.
 */
export function useSetOperatorDisabled(operatorId: string, { onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: (disabled: boolean) => operatorsApi.update(operatorId, { disabled }),
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
