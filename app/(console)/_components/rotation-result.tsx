'use client';

import { useId, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { NavigationGuard } from '@/components/navigation-guard';
import { SecretField } from '@/components/secret-field';
import { Button } from '@/components/ui/button';
import { type Environment, environmentPhrase } from '@/lib/environments';
import type { RotateResult } from '@/lib/user-groups/contract';
import { DetailsList, OrNone } from './details-list';

export type Rotation = { id: number; oldToken: string; result: RotateResult };

type RotationResultProps = {
  environment: Environment;
  rotation: Rotation;
  headingId: string;
  /** The new token was itself rotated or its group deleted since. */
  newTokenRevoked: boolean;
  onClose: () => void;
};

/**
 * A finished rotation. The new token stays on screen until it has been copied, or until the
 * person confirms closing without copying: once closed it cannot be shown again.
 */
export function RotationResult({
  environment,
  rotation,
  headingId,
  newTokenRevoked,
  onClose,
}: RotationResultProps) {
  const descriptionId = useId();
  const [copied, setCopied] = useState(false);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const { user_group: userGroup } = rotation.result;

  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={descriptionId}
      className="flex flex-col gap-4 rounded-lg border border-border bg-background/60 p-4 sm:p-5"
    >
      <div className="flex flex-col gap-1">
        <h3 id={headingId} tabIndex={-1} className="text-sm font-semibold outline-none">
          Rotated token
        </h3>
        <p id={descriptionId} className="text-sm text-muted-foreground">
          The old token stopped working. Copy the new token now and use it wherever the old one was used.
        </p>
      </div>

      <SecretField
        label="New token"
        value={userGroup.token}
        revoked={newTokenRevoked}
        confirmFirst={environment === 'Customer'}
        onCopied={() => setCopied(true)}
      />

      <DetailsList
        details={[
          { term: 'Environment tag', description: <OrNone value={userGroup.api_environment_tag} /> },
          { term: 'Name', description: <OrNone value={userGroup.name} /> },
          { term: 'User group ID', description: <OrNone value={userGroup.provided_id} mono /> },
        ]}
      />

      <SecretField
        label="Old token"
        value={rotation.oldToken}
        revoked
        confirmFirst={environment === 'Customer'}
      />

      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => (copied ? onClose() : setConfirmingClose(true))}>
          Done
        </Button>
        {copied ? null : <p className="text-xs text-muted-foreground">Copy the new token before closing.</p>}
      </div>

      <NavigationGuard
        active={!copied}
        title={`Leave without copying the new token of ${userGroup.provided_id} in ${environmentPhrase(environment)}?`}
        description="The old token already stopped working. The new one is on this page until you copy it."
        stayLabel="Stay and copy it"
        leaveLabel="Leave without copying"
      />

      <ConfirmDialog
        open={confirmingClose}
        onOpenChange={setConfirmingClose}
        title={`Close the new token of ${userGroup.provided_id} in ${environmentPhrase(environment)} without copying it?`}
        description="Once closed, the new token cannot be shown again, and the old one already stopped working."
        cancelLabel="Keep it open"
        confirmLabel="Close anyway"
        destructive
        onConfirm={() => {
          setConfirmingClose(false);
          onClose();
        }}
      />
    </section>
  );
}
