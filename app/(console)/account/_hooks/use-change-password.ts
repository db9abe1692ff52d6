import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { failureMessage } from '@/lib/browser-client/failure-message';
import type { ChangePasswordValues } from '../_components/change-password.schema';

type Callbacks = Pick<UseMutationOptions<void, Error, ChangePasswordValues>, 'onSuccess'>;

/** Changes the signed-in operator's password; their other sessions end. */
export function useChangePassword({ onSuccess }: Callbacks = {}) {
  return useMutation({
    // The auth client (better-auth) is fetched on submit, not with the page.
    mutationFn: async ({ currentPassword, newPassword }: ChangePasswordValues) =>
      (await import('@/lib/browser-client/auth-client')).authApi.changePassword({
        currentPassword,
        newPassword,
      }),
    onSuccess,
  });
}

/** What a failed password change means for the person at the screen. */
export const changePasswordFailureMessage = (error: unknown) =>
  failureMessage(error, {
    otherwise: 'The password was not changed.',
    rateLimited: () => 'Too many attempts. Wait a minute, then try again.',
    refused: (status) => `The password was not changed (HTTP ${status}).`,
  });
