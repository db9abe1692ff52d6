'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type Environment, environmentPhrase, slugOf } from '@/lib/environments';
import type { DeleteRequest } from '@/lib/user-group-api/contract';
import { userGroupRoutes } from '@/lib/user-groups/routes';
import { deleteUserGroupFormFields, deleteUserGroupFormSchema } from './delete-user-group.schema';
import { toDeleteRequest } from './delete-user-group.utils';

type DeleteUserGroupSectionProps = {
  environment: Environment;
  onTokenRevoked: (token: string) => void;
};

export function DeleteUserGroupSection({ environment, onTokenRevoked }: DeleteUserGroupSectionProps) {
  const id = useId();
  const [confirming, setConfirming] = useState<DeleteRequest | null>(null);
  const form = useForm({
    resolver: zodResolver(deleteUserGroupFormSchema),
    defaultValues: { user_group_id: '', current_token: '' },
    mode: 'onChange',
  });
  const { errors } = form.formState;

  // The group and its token, for good.
  const deleteUserGroup = useRouteMutation(userGroupRoutes.delete, {
    params: { environment: slugOf[environment] },
    onSuccess: (_result, request) => {
      onTokenRevoked(request.current_token);
      form.reset();
    },
    onError: (error) => {
      for (const { name, message } of serverFieldErrors(error, deleteUserGroupFormFields)) {
        form.setError(name, { type: 'server', message });
      }
    },
    onSettled: () => setConfirming(null),
  });

  const onSubmit = form.handleSubmit(
    (values) => {
      setConfirming(toDeleteRequest(values));
    },
    () => deleteUserGroup.reset(),
  );

  const groupIdId = `${id}-user-group-id`;
  const tokenId = `${id}-current-token`;
  const deleted = deleteUserGroup.data;

  return (
    <section>
      <Card>
        <CardHeader>
          <CardTitle>Delete user group</CardTitle>
          <CardDescription>
            Deletes the group and its token for good. Embedded dashboards viewed with the token stop working.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form aria-label="Delete user group" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField id={groupIdId} label="User group ID" error={errors.user_group_id?.message}>
                {(control) => (
                  <Input
                    {...control}
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    {...form.register('user_group_id')}
                  />
                )}
              </FormField>
              <FormField id={tokenId} label="Current token" error={errors.current_token?.message}>
                {(control) => (
                  <Input
                    {...control}
                    // Masked like every token on screen.
                    type="password"
                    autoComplete="off"
                    spellCheck={false}
                    autoCapitalize="off"
                    data-1p-ignore
                    className="font-mono"
                    {...form.register('current_token')}
                  />
                )}
              </FormField>
            </div>
            {deleteUserGroup.isError ? (
              <Alert variant="error" role="alert">
                {formErrorMessage(deleteUserGroup.error)}
              </Alert>
            ) : null}
            <div role="status" className="empty:hidden">
              {deleted ? (
                <Alert variant="success">User group “{deleted.user_group_id}” was deleted.</Alert>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" variant="destructive" disabled={deleteUserGroup.isPending}>
                {deleteUserGroup.isPending ? 'Working…' : 'Delete user group'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title={`Delete ${confirming?.user_group_id} from ${environmentPhrase(environment)}?`}
        description={
          <>
            User group{' '}
            <code className="font-mono break-all text-foreground">{confirming?.user_group_id}</code> and its
            token are deleted from {environment} at once. This cannot be undone.
          </>
        }
        confirmLabel="Delete"
        destructive
        typeToConfirm={{
          kind: 'id',
          value: confirming?.user_group_id ?? '',
          label: 'Type the user group ID to confirm',
        }}
        pending={deleteUserGroup.isPending}
        onConfirm={() => {
          if (confirming) deleteUserGroup.mutate(confirming);
        }}
      />
    </section>
  );
}
