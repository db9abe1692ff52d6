'use client';

import Link from 'next/link';
import { useCallback, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { DeleteUserGroupSection } from './delete-user-group-form';
import { GetOrCreateSection } from './get-or-create-form';
import { type RotatePrefill, RotateTokenSection } from './rotate-token-form';

/** Which forms the operator's role may use; the route handlers check the same on the server. */
export type ConsoleActions = { getOrCreate: boolean; rotate: boolean; delete: boolean };

/**
 * The page's client state shared by the three forms: which tokens stopped working (rotated or their
 * group deleted), so every place that shows one can say so, and the token to rotate next.
 */
export function UserGroupConsole({ allowed }: { allowed: ConsoleActions }) {
  const [revokedTokens, setRevokedTokens] = useState<ReadonlySet<string>>(() => new Set());
  const [rotatePrefill, setRotatePrefill] = useState<RotatePrefill | null>(null);

  const revokeToken = useCallback((token: string) => {
    setRevokedTokens((current) => new Set(current).add(token));
  }, []);
  const rotateToken = useCallback((token: string) => {
    setRotatePrefill({ token, requestedAt: Date.now() });
  }, []);

  if (!allowed.getOrCreate && !allowed.rotate && !allowed.delete) {
    return (
      <Alert role="status">
        Your role can read the{' '}
        <Link href="/audit" className="underline">
          audit log
        </Link>{' '}
        and the{' '}
        <Link href="/recent" className="underline">
          recent groups
        </Link>
        , but not see tokens or change user groups. Ask an admin of the console for the support role.
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {allowed.getOrCreate ? (
        <GetOrCreateSection revokedTokens={revokedTokens} onRotateToken={rotateToken} />
      ) : null}
      {allowed.rotate ? (
        <RotateTokenSection
          prefill={rotatePrefill}
          revokedTokens={revokedTokens}
          onTokenRevoked={revokeToken}
        />
      ) : null}
      {allowed.delete ? <DeleteUserGroupSection onTokenRevoked={revokeToken} /> : null}
    </div>
  );
}
