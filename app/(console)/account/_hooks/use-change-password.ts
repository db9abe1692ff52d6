import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import type { ChangePasswordValues } from '@/lib/console-api/operators';

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
export function changePasswordFailureMessage(error: unknown): string {
  if (!(error instanceof ConsoleApiError)) return 'The password was not changed.';
  if (error.status === null) return error.message;
  if (error.status === 429 && (!error.explained || error.retryAfterSeconds !== undefined))
    return 'Too many attempts. Wait a minute, then try again.';
  // The console's own words, better-auth's refusals included (lib/server/auth-answers.ts).
  if (error.explained) return error.message;
  return `The password was not changed (HTTP ${error.status}).`;
}
