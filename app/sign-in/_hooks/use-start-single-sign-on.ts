import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { authApi } from '@/lib/auth-client';

type Callbacks = Pick<UseMutationOptions<string, Error, void>, 'onError'>;

/**
 * Starts single sign-on and leaves for the identity provider. It sends the person back to `next`
 * once signed in, or to the sign-in page with `?error=` when it refuses.
 */
export function useStartSingleSignOn(next: string, { onError }: Callbacks = {}) {
  return useMutation({
    mutationFn: () => authApi.startSingleSignOn({ callbackURL: next, errorCallbackURL: '/sign-in' }),
    onSuccess: (identityProviderUrl) => window.location.assign(identityProviderUrl),
    onError,
  });
}
