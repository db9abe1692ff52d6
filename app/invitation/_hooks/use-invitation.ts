import { useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { invitationRoutes } from '@/lib/invitations/routes';

/** Whom the link lets in, or why it no longer works. The secret goes in a POST body, never a URL. */
export function useInvitation(secret: string | null) {
  return useQuery({
    // The secret stays out of the cache's key: one link per page.
    queryKey: ['invitation'],
    queryFn: () => callRoute(invitationRoutes.lookupInvitation, { body: { secret: secret ?? '' } }),
    enabled: secret !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
