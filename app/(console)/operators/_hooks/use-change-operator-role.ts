import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { UpdateOperatorResult } from '@/lib/auth/operators.schema';
import type { Role } from '@/lib/roles';
import { operatorsApi } from './operators-api';

type Callbacks = Pick<UseMutationOptions<UpdateOperatorResult, Error, Role>, 'onSuccess' | 'onError'>;

/**
 * Gives one operator another role (it applies to their next request), then refreshes the
 * server-rendered list of operators.
 */
export function useChangeOperatorRole(operatorId: string, { onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: (role: Role) => operatorsApi.update(operatorId, { role }),
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
