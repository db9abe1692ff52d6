import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import type { SignInValues } from '@/app/sign-in/_components/sign-in.schema';

type Callbacks = Pick<UseMutationOptions<void, Error, SignInValues>, 'onError'>;

/**
 * Signs in with email and password, then goes to `next` with a full load: the server renders the
 * console for the new session.
 */
export function useSignIn(next: string, { onError }: Callbacks = {}) {
  return useMutation({
    // The auth client (better-auth) is fetched on submit, not with the page.
    mutationFn: async (credentials: SignInValues) =>
      (await import('@/lib/auth-client')).authApi.signInWithEmail(credentials),
    onSuccess: () => window.location.assign(next),
    onError,
  });
}
