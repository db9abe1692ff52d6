import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import type { SignInValues } from '@/app/sign-in/_components/sign-in.schema';

type Callbacks = Pick<UseMutationOptions<{ secondFactor: boolean }, Error, SignInValues>, 'onError'> & {
  /** The password was right and the operator has a second factor: a code is asked next. */
  onSecondFactor?: () => void;
};

/**
 * Signs in with email and password, then goes to `next` with a full load (the server renders the
 * console for the new session), or asks for the second factor first.
 */
export function useSignIn(next: string, { onError, onSecondFactor }: Callbacks = {}) {
  return useMutation({
    // The auth client (better-auth) is fetched on submit, not with the page.
    mutationFn: async (credentials: SignInValues) =>
      (await import('@/lib/browser-client/auth-client')).authApi.signInWithEmail(credentials),
    onSuccess: ({ secondFactor }) => (secondFactor ? onSecondFactor?.() : window.location.assign(next)),
    onError,
  });
}

/** The second step: an authenticator code or a backup code; signed in, goes to `next`. */
export function useVerifySecondFactor(next: string) {
  return useMutation({
    mutationFn: async (input: { code: string; kind: 'totp' | 'backup-code' }) =>
      (await import('@/lib/browser-client/auth-client')).authApi.verifySecondFactor(input),
    onSuccess: () => window.location.assign(next),
  });
}

/** A sign-in with a passkey; signed in, goes to `next`. */
export function useSignInWithPasskey(next: string, { onError }: { onError: (error: Error) => void }) {
  return useMutation({
    mutationFn: async () => (await import('@/lib/browser-client/auth-client')).authApi.signInWithPasskey(),
    onSuccess: () => window.location.assign(next),
    onError,
  });
}
