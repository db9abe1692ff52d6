import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import type { InvitationLink } from '@/lib/console-api/operators';
import { consoleRoutes } from '@/lib/console-api/routes';

/** A new invitation link (the old one stops working), then the list refreshed with its expiry. */
export function useResendInvitation(
  operatorId: string,
  { onSuccess }: { onSuccess?: (invitation: InvitationLink) => void } = {},
) {
  const router = useRouter();
  return useMutation({
    mutationFn: () => callRoute(consoleRoutes.resendInvitation, { params: { id: operatorId } }),
    onSuccess: (invitation) => {
      router.refresh();
      onSuccess?.(invitation);
    },
  });
}
