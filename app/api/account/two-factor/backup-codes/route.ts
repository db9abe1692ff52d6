import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { withProof } from '@/lib/two-factor/proofs';
import { newBackupCodes } from '@/lib/two-factor/server';

/** Ten new backup codes for the current password, shown once; the old ones stop working. */
export const POST = consoleRoute(
  {
    ...consoleRoutes.newBackupCodes,
    audit: { action: 'two-factor.backup-codes', request: () => ({ detail: 'ten new codes' }) },
  },
  async ({ request, operator, requestId, body, server }) => {
    return withProof(server, operator, requestId, () =>
      newBackupCodes(server, request.headers, body.password),
    );
  },
);
