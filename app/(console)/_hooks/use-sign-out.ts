import { useMutation } from '@tanstack/react-query';
import { authApi } from '@/lib/auth-client';

/**
 * Ends the session on the server, then leaves for the sign-in page whatever the answer: a full load,
 * so nothing of the console stays in memory.
 */
export function useSignOut() {
  return useMutation({
    mutationFn: authApi.signOut,
    onSettled: () => window.location.assign('/sign-in'),
  });
}
