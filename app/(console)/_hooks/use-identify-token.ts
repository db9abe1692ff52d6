import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Whose token is this: the token goes in the POST body only, the answer holds no token. */
export function useIdentifyToken() {
  return useMutation({
    mutationFn: (token: string) => callRoute(consoleRoutes.identifyToken, { body: { token } }),
  });
}
