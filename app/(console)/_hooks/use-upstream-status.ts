import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { upstreamStatusRoutes } from '@/lib/upstream-status/routes';

/** How each environment's service answered lately, asked again every 30 s (the server keeps 5 s). */
const upstreamStatusQuery = queryOptions({
  queryKey: ['upstream-status'],
  queryFn: ({ signal }) => callRoute(upstreamStatusRoutes.upstreamStatus, { signal }),
  refetchInterval: 30_000,
  staleTime: 25_000,
  retry: false,
});

/** The header's status, and a bulk job's when it waits: one query, shared. */
export function useUpstreamStatus(refetchInterval = 30_000) {
  return useQuery({ ...upstreamStatusQuery, refetchInterval, staleTime: Math.min(refetchInterval, 25_000) });
}
