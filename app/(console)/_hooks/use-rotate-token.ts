import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { userGroupsApi } from '@/lib/console-api/client';
import type { RotateResult } from '@/lib/console-api/contract';
import type { Environment } from '@/lib/environments';
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
  return useMutation({ mutationFn: userGroupsApi(environment).rotate, ...callbacks });
}
