import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { CreateOperatorRequest, CreateOperatorResult } from '@/lib/auth/operators.schema';
import { operatorsApi } from './operators-api';

type Callbacks = Pick<
  UseMutationOptions<CreateOperatorResult, Error, CreateOperatorRequest>,
  'onSuccess' | 'onError'
>;

/** Adds an operator, then refreshes the server-rendered list of operators. */
export function useAddOperator({ onSuccess, onError }: Callbacks = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: operatorsApi.create,
    onSuccess: (...args) => {
      router.refresh();
      return onSuccess?.(...args);
    },
    onError,
  });
}
