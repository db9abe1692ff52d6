import { type UseMutationOptions, useMutation } from '@tanstack/react-query';

type Start = { next?: string } | undefined;
type Callbacks = Pick<UseMutationOptions<string, Error, Start>, 'onError'>;

/**
 * Starts single sign-on and leaves for the identity provider. It sends the person back to `next`
 * (or the one given at the call: the step-up dialog's page) once signed in, or to the sign-in page
 * with `?error=` when it refuses.
 */
export function useStartSingleSignOn(next: string, { onError }: Callbacks = {}) {
  return useMutation({
    // The auth client (better-auth) is fetched on the click, not with the page.
    mutationFn: async (start: Start) =>
      (await import('@/lib/browser-client/auth-client')).authApi.startSingleSignOn({
        callbackURL: start?.next ?? next,
        errorCallbackURL: '/sign-in',
      }),
    onSuccess: (identityProviderUrl) => window.location.assign(identityProviderUrl),
    onError,
  });
}
