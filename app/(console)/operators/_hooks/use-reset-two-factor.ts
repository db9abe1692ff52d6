import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Turns off one operator's second factor (a lost phone), then refreshes the list of operators. */
export function useResetTwoFactor(operatorId: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const router = useRouter();
  return useMutation({
    mutationFn: () => callRoute(consoleRoutes.resetSecondFactor, { params: { id: operatorId } }),
    onSuccess: () => {
      router.refresh();
      onSuccess?.();
    },
  });
}
