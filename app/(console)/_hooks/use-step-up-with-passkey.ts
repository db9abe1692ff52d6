import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';
import { answerWithPasskey } from '@/lib/passkeys/browser-ceremony';

/** Confirms with a passkey: this session's challenge, the authenticator, then its answer. */
export function useStepUpWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const options = await callRoute(consoleRoutes.stepUpPasskey, {});
      const passkey = await answerWithPasskey(options);
      return callRoute(consoleRoutes.stepUp, { body: { passkey } });
    },
  });
}
