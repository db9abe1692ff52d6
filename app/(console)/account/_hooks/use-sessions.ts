import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';
import type { EndSessionsRequest } from '@/lib/console-api/sessions';

const sessionsKey = ['account', 'sessions'] as const;

/** The operator's open sessions, this browser's first. */
export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => callRoute(consoleRoutes.listSessions, { signal }),
  });
}

/** Ends one session or every other one, then reads the list again. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndSessionsRequest) => callRoute(consoleRoutes.endSessions, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
