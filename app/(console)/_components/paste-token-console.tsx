'use client';

import dynamic from 'next/dynamic';
import { useCallback, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { realClock } from '@/lib/clock';
import type { Environment } from '@/lib/environments';
import { IdentifyTokenForm } from './identify-token-form';
import type { RotatePrefill } from './rotate-token-form';

/**
 * Shown once a token turns out unknown: fetched then, not with the page (they bring react-hook-form
 * and its zod resolver, which identifying a token does not use).
 */
const RotateTokenSection = dynamic(() =>
  import('./rotate-token-form').then((module) => module.RotateTokenSection),
);
const DeleteUserGroupSection = dynamic(() =>
  import('./delete-user-group-form').then((module) => module.DeleteUserGroupSection),
);

/** Which forms the operator's role may use; the route handlers check the same on the server. */
export type PasteTokenActions = { rotate: boolean; delete: boolean };

/**
 * For a token from elsewhere (pasted from a customer's configuration): first whose it is; a token
 * the console knows is acted on from its group's page (with that page's confirmations), one it has
 * never seen can still be rotated, or its group deleted by id and token, here. Shares which tokens
 * stopped working, so every place that shows one says so.
 */
export function PasteTokenConsole({
  environment,
  allowed,
}: {
  environment: Environment;
  allowed: PasteTokenActions;
}) {
  const [revokedTokens, setRevokedTokens] = useState<ReadonlySet<string>>(() => new Set());
  const [unknownToken, setUnknownToken] = useState<RotatePrefill | null>(null);
  const showUnknown = useCallback(
    (token: string) => setUnknownToken({ token, requestedAt: realClock.now() }),
    [],
  );
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
      <IdentifyTokenForm environment={environment} onUnknown={showUnknown} allowed={allowed} />
      {unknownToken ? (
        <section aria-labelledby="unknown-token-heading" className="flex flex-col gap-4">
          <h2 id="unknown-token-heading" className="text-base font-semibold">
            A token this console does not know, in {environment}
          </h2>
          {allowed.rotate ? (
            <RotateTokenSection
              environment={environment}
              prefill={unknownToken}
              revokedTokens={revokedTokens}
              onTokenRevoked={revokeToken}
            />
          ) : null}
          {allowed.delete ? (
            <DeleteUserGroupSection environment={environment} onTokenRevoked={revokeToken} />
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
