import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { twoFactorRoutes } from '@/lib/two-factor/routes';

/** Confirms with a passkey: this session's challenge, the authenticator, then its answer. */
export function useStepUpWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      // The ceremony (@simplewebauthn/browser) is fetched on use, while the challenge is asked for.
      const ceremony = import('@/lib/passkeys/browser-ceremony');
      const options = await callRoute(twoFactorRoutes.stepUpPasskey, {});
      const { answerWithPasskey } = await ceremony;
      const passkey = await answerWithPasskey(options);
      return callRoute(twoFactorRoutes.stepUp, { body: { passkey } });
    },
  });
}
