'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/confirm-dialog';
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
import { type Role, roleDescriptions, roles } from '@/lib/roles';
import { InvitationLinkDialog } from './invitation-link-dialog';

const fields = ['email', 'name', 'role'] as const;
const selectClassName =
  'h-9 w-full rounded-md border border-input bg-card px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30';

/** Only where the policy makes granting admin wait for another operator: loaded then. */
const ApprovalWaiting = dynamic(() =>
  import('@/components/approval-waiting').then((module) => module.ApprovalWaiting),
);

/**
 * Invites an operator. Where CONSOLE_REQUIRE_APPROVAL names grant-admin, adding one at a role that can
 * approve (`approvalRoles`) asks for a reason first and then follows the request until another
 * operator decides it; without mail (`mails` false) the console answers at once how such a person
 * gets in instead, as their link could only be shown here.
 */
export function AddOperatorForm({
  approvalRoles = [],
  mails = false,
}: {
  approvalRoles?: readonly Role[];
  mails?: boolean;
}) {
  const [asking, setAsking] = useState<CreateOperatorRequest | null>(null);
  const [reason, setReason] = useState('');
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
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
    onWaiting: ({ approvalId }) => {
      setAsking(null);
      setWaitingFor(approvalId);
      form.reset();
    },
    onError: (error) => {
      setAsking(null);
      for (const { name, message } of serverFieldErrors(error, fields)) form.setError(name, { message });
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    setAdded(null);
    setWaitingFor(null);
    if (approvalRoles.includes(values.role) && mails) {
      create.reset();
      setReason('');
      setAsking(values);
      return;
    }
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
      {waitingFor ? <ApprovalWaiting approvalId={waitingFor} /> : null}
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
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={`Ask to add ${asking?.email ?? ''} as ${asking?.role ?? ''}?`}
        description={`A ${asking?.role ?? ''} can approve what the policy names, so inviting one waits for another operator's approval: nobody is invited until then. The link is emailed to them alone; neither you nor the approver is shown it.`}
        confirmLabel="Ask for approval"
        pending={create.isPending}
        pendingLabel="Asking…"
        reason={{ label: 'Reason (another operator reads it)', value: reason, onChange: setReason }}
        onConfirm={() => asking && create.mutate(Object.assign({ ...asking }, { approvalReason: reason }))}
      />
      <InvitationLinkDialog
        email={added?.email ?? ''}
        invitation={added?.invitation ?? null}
        onClose={() => setAdded((shown) => shown && { ...shown, invitation: null })}
        returnFocus={inviteButton}
      />
    </form>
  );
}
