import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { passkeyRoutes } from '@/lib/passkeys/routes';

export const passkeysKey = ['account', 'passkeys'] as const;

/** The operator's passkeys, newest first. */
export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: ({ signal }) => callRoute(passkeyRoutes.listPasskeys, { signal }),
  });
}

/**
 * Adds a passkey: the server's options, the browser's authenticator (which asks for the PIN,
 * fingerprint or face), then its answer under the name given.
 */
export function useAddPasskey({ onSuccess }: { onSuccess: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      // The ceremony (@simplewebauthn/browser) is fetched on use, while the options are asked for.
      const ceremony = import('@/lib/passkeys/browser-ceremony');
      const options = await callRoute(passkeyRoutes.startPasskey, { body: { name } });
      const { createPasskey } = await ceremony;
      const response = await createPasskey(options);
      return callRoute(passkeyRoutes.addPasskey, { body: { name, response } });
    },
    onSuccess,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}
