import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { ConfirmEnrolment, PasswordConfirmation } from '@/lib/console-api/account-security';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Enrolling, step one: the password; the secret (QR code and text) and ten backup codes back. */
export function useStartTwoFactor() {
  return useMutation({
    mutationFn: (body: PasswordConfirmation) => callRoute(consoleRoutes.startTwoFactor, { body }),
  });
}

/** Step two: the app's first code turns the second factor on. */
export function useConfirmTwoFactor() {
  return useMutation({
    mutationFn: (body: ConfirmEnrolment) => callRoute(consoleRoutes.confirmTwoFactor, { body }),
  });
}

/** Ten new backup codes; the old ones stop working. */
export function useNewBackupCodes() {
  return useMutation({
    mutationFn: (body: PasswordConfirmation) => callRoute(consoleRoutes.newBackupCodes, { body }),
  });
}

export function useRemoveTwoFactor() {
  return useMutation({
    mutationFn: (body: PasswordConfirmation) => callRoute(consoleRoutes.removeTwoFactor, { body }),
  });
}
