import { useMutation } from '@tanstack/react-query';
import type { StepUpRequest } from '@/lib/console-api/account-security';
import { callRoute } from '@/lib/console-api/client';
import { consoleRoutes } from '@/lib/console-api/routes';

/** Confirms who the operator is: the password, an authenticator code or a backup code. */
export function useStepUp() {
  return useMutation({
    mutationFn: (proof: StepUpRequest) => callRoute(consoleRoutes.stepUp, { body: proof }),
  });
}
