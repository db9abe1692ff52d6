'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import {
  type CreateOperatorRequest,
  createOperatorSchema,
  type InvitationLink,
} from '@/lib/operators/contract';
import { operatorRoutes } from '@/lib/operators/routes';
import { roleDescriptions, roles } from '@/lib/roles';
import { InvitationLinkDialog } from './invitation-link-dialog';

const fields = ['email', 'name', 'role'] as const;
const selectClassName =
  'h-9 w-full rounded-md border border-input bg-card px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30';

export function AddOperatorForm() {
  // The link is kept only while its dialog is open: closing it drops the link from the page.
  const inviteButton = useRef<HTMLButtonElement>(null);
  const [added, setAdded] = useState<{ email: string; invitation: InvitationLink | null } | null>(null);
  const form = useForm<CreateOperatorRequest>({
    resolver: zodResolver(createOperatorSchema),
    defaultValues: { email: '', name: '', role: 'viewer' },
  });
  const { errors } = form.formState;
  const create = useRouteMutation(operatorRoutes.createOperator, {
    // The server-rendered list of operators is read again with the new one in it.
    refresh: true,
    onSuccess: (result, request) => {
      setAdded({ email: request.email, invitation: result.invitation });
      form.reset();
    },
    onError: (error) => {
      for (const { name, message } of serverFieldErrors(error, fields)) form.setError(name, { message });
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    setAdded(null);
    create.mutate(values);
  });

  return (
    <form aria-label="Add an operator" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField id="operator-email" label="Email" error={errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete="off" {...form.register('email')} />}
        </FormField>
        <FormField id="operator-name" label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="off" {...form.register('name')} />}
        </FormField>
        <FormField
          id="operator-role"
          label="Role"
          description={roleDescriptions[form.watch('role')]}
          error={errors.role?.message}
        >
          {(control) => (
            <select {...control} className={selectClassName} {...form.register('role')}>
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      {create.isError ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(create.error)}
        </Alert>
      ) : null}
      {added ? (
        <Alert variant="success" role="status">
          {added.email} is invited. Once they have chosen a password with the link, they are in.
        </Alert>
      ) : null}
      <div>
        <Button ref={inviteButton} type="submit" disabled={create.isPending}>
          <UserPlus aria-hidden="true" />
          {create.isPending ? 'Inviting…' : 'Invite operator'}
        </Button>
      </div>
      <InvitationLinkDialog
        email={added?.email ?? ''}
        invitation={added?.invitation ?? null}
        onClose={() => setAdded((shown) => shown && { ...shown, invitation: null })}
        returnFocus={inviteButton}
      />
    </form>
  );
}
