'use client';

import { useCallback, useState } from 'react';
import { DeleteUserGroupSection } from './delete-user-group-form';
import { GetOrCreateSection } from './get-or-create-form';
import { type RotatePrefill, RotateTokenSection } from './rotate-token-form';

/**
 * The page's client state shared by the three forms: which tokens stopped working (rotated or their
 * group deleted), so every place that shows one can say so, and the token to rotate next.
 */
export function UserGroupConsole() {
  const [revokedTokens, setRevokedTokens] = useState<ReadonlySet<string>>(() => new Set());
  const [rotatePrefill, setRotatePrefill] = useState<RotatePrefill | null>(null);

  const revokeToken = useCallback((token: string) => {
    setRevokedTokens((current) => new Set(current).add(token));
  }, []);
  const rotateToken = useCallback((token: string) => {
    setRotatePrefill({ token, requestedAt: Date.now() });
  }, []);

  return (
    <div className="flex flex-col gap-6">
      <GetOrCreateSection revokedTokens={revokedTokens} onRotateToken={rotateToken} />
      <RotateTokenSection
        prefill={rotatePrefill}
        revokedTokens={revokedTokens}
        onTokenRevoked={revokeToken}
      />
      <DeleteUserGroupSection onTokenRevoked={revokeToken} />
    </div>
  );
}
