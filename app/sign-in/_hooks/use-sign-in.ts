import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import type { SignInValues } from '@/app/sign-in/_components/sign-in.schema';
import { authApi } from '@/lib/auth-client';

type Callbacks = Pick<UseMutationOptions<void, Error, SignInValues>, 'onError'>;

/**
 * Signs in with email and password, then goes to `next` with a full load: the server renders the
 * console for the new session.
 */
export function useSignIn(next: string, { onError }: Callbacks = {}) {
  return useMutation({
    mutationFn: authApi.signInWithEmail,
    onSuccess: () => window.location.assign(next),
    onError,
  });
}
