'use client';

import { RotateCcw } from 'lucide-react';
import { useGetOrCreateUserGroup } from '@/app/(console)/_hooks/use-get-or-create-user-group';
import { formErrorMessage } from '@/components/form-errors';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

type ReopenGroupProps = { userGroupId: string; name: string | null };

/**
 * Opens a recent group again (get-or-create with its recorded id and name, which never changes an
 * existing group) to show its token once more.
 */
export function ReopenGroup({ userGroupId, name }: ReopenGroupProps) {
  const reopen = useGetOrCreateUserGroup('Customer');

  if (reopen.data) {
    return (
      <div className="flex flex-col gap-2">
        {reopen.data.new_user_group ? (
          <Alert variant="notice" role="status">
            This group no longer existed and was created again, with a new token.
          </Alert>
        ) : null}
        <SecretField label="Token" value={reopen.data.user_group.token} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => reopen.mutate({ user_group_id: userGroupId, ...(name ? { name } : {}) })}
        disabled={reopen.isPending}
      >
        <RotateCcw aria-hidden="true" />
        {reopen.isPending ? 'Opening…' : 'Reopen'}
        <span className="sr-only"> {userGroupId}</span>
      </Button>
      {reopen.error ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(reopen.error)}
        </Alert>
      ) : null}
    </div>
  );
}
