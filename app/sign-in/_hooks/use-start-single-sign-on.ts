import { type UseMutationOptions, useMutation } from '@tanstack/react-query';

type Callbacks = Pick<UseMutationOptions<string, Error, void>, 'onError'>;

/**
 * Starts single sign-on and leaves for the identity provider. It sends the person back to `next`
 * once signed in, or to the sign-in page with `?error=` when it refuses.
 */
export function useStartSingleSignOn(next: string, { onError }: Callbacks = {}) {
  return useMutation({
    // The auth client (better-auth) is fetched on the click, not with the page.
    mutationFn: async () =>
      (await import('@/lib/auth-client')).authApi.startSingleSignOn({
        callbackURL: next,
        errorCallbackURL: '/sign-in',
      }),
    onSuccess: (identityProviderUrl) => window.location.assign(identityProviderUrl),
    onError,
  });
}
