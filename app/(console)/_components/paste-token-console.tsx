'use client';

import { useCallback, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import type { Environment } from '@/lib/environments';
import { DeleteUserGroupSection } from './delete-user-group-form';
import { RotateTokenSection } from './rotate-token-form';

/** Which forms the operator's role may use; the route handlers check the same on the server. */
export type PasteTokenActions = { rotate: boolean; delete: boolean };

/**
 * For a token from elsewhere (pasted from a customer's configuration): rotate it, or delete its
 * group by id and token. Shares which tokens stopped working, so every place that shows one says so.
 */
export function PasteTokenConsole({
  environment,
  allowed,
}: {
  environment: Environment;
  allowed: PasteTokenActions;
}) {
  const [revokedTokens, setRevokedTokens] = useState<ReadonlySet<string>>(() => new Set());
  const revokeToken = useCallback((token: string) => {
    setRevokedTokens((current) => new Set(current).add(token));
  }, []);

  if (!allowed.rotate && !allowed.delete) {
    return (
      <Alert role="status">
        Your role may not rotate tokens or delete user groups. Ask an admin of the console for the support
        role.
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {allowed.rotate ? (
        <RotateTokenSection
          environment={environment}
          prefill={null}
          revokedTokens={revokedTokens}
          onTokenRevoked={revokeToken}
        />
      ) : null}
      {allowed.delete ? (
        <DeleteUserGroupSection environment={environment} onTokenRevoked={revokeToken} />
      ) : null}
    </div>
  );
}
