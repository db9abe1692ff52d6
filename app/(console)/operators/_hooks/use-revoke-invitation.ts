import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Withdraws an invitation (the operator, never in, is removed), then refreshes the list. */
export function useRevokeInvitation(operatorId: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: () => callRoute(consoleRoutes.revokeInvitation, { params: { id: operatorId } }),
    onSuccess: () => {
      router.refresh();
      onSuccess?.();
    },
  });
}
