import { useMutation, useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import type { AcceptInvitationRequest } from '@/lib/console-api/invitations';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Whom the link lets in, or why it no longer works. The secret goes in a POST body, never a URL. */
export function useInvitation(secret: string | null) {
  return useQuery({
    // The secret stays out of the cache's key: one link per page.
    queryKey: ['invitation'],
    queryFn: () => callRoute(consoleRoutes.lookupInvitation, { body: { secret: secret ?? '' } }),
    enabled: secret !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Sets the chosen password; signed in, goes to the console with a full load. */
export function useAcceptInvitation({ onError }: { onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: (body: AcceptInvitationRequest) => callRoute(consoleRoutes.acceptInvitation, { body }),
    // Where the role must have a second factor, the console sends them on to enrol one.
    onSuccess: () => window.location.assign('/'),
    onError,
  });
}
