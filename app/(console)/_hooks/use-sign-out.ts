import { useMutation } from '@tanstack/react-query';

/**
 * Ends the session on the server, then leaves for the sign-in page whatever the answer: a full load,
 * so nothing of the console stays in memory. The auth client (better-auth, zod) is fetched on the
 * click: every signed-in page shows this button, few clicks need it.
 */
export function useSignOut() {
  return useMutation({
    mutationFn: async () => (await import('@/lib/browser-client/auth-client')).authApi.signOut(),
    onSettled: () => window.location.assign('/sign-in'),
  });
}
