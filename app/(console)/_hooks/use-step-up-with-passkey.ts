import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { answerWithPasskey } from '@/lib/passkeys/browser-ceremony';
import { twoFactorRoutes } from '@/lib/two-factor/routes';

/** Confirms with a passkey: this session's challenge, the authenticator, then its answer. */
export function useStepUpWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const options = await callRoute(twoFactorRoutes.stepUpPasskey, {});
      const passkey = await answerWithPasskey(options);
      return callRoute(twoFactorRoutes.stepUp, { body: { passkey } });
    },
  });
}
