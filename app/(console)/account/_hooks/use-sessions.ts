import { useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { sessionRoutes } from '@/lib/sessions/routes';

export const sessionsKey = ['account', 'sessions'] as const;

/** The operator's open sessions, this browser's first. */
export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => callRoute(sessionRoutes.listSessions, { signal }),
  });
}
