import { useMutation } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Ends every session of an operator: each of their browsers is signed out on its next request. */
export function useEndOperatorSessions(
  operatorId: string,
  { onSuccess }: { onSuccess?: (ended: number) => void } = {},
) {
  return useMutation({
    mutationFn: () => callRoute(consoleRoutes.endOperatorSessions, { params: { id: operatorId } }),
    onSuccess: ({ ended }) => onSuccess?.(ended),
  });
}
