'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useInvitation } from '@/app/invitation/_hooks/use-invitation';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type ChoosePasswordValues, choosePasswordSchema } from '@/lib/invitations/contract';
import { invitationRoutes } from '@/lib/invitations/routes';
import { MIN_PASSWORD_LENGTH } from '@/lib/limits';

const fields = ['password', 'confirmPassword'] as const;

/**
 * Reads the link's secret from the fragment once, then takes it out of the address bar (and so of
 * the history); shows whom the link lets in, or why it no longer works; then the password form.
 */
export function AcceptInvitation({ signedInAs }: { signedInAs: string | null }) {
  const [secret, setSecret] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const fromFragment = window.location.hash.slice(1);
    setSecret(fromFragment || null);
    if (fromFragment) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const invitation = useInvitation(signedInAs ? null : (secret ?? null));

  if (signedInAs)
    return (
      <Alert variant="error" role="alert">
        You are signed in as {signedInAs}. Sign out first, then open the invitation link again.
      </Alert>
    );
  if (secret === undefined || (secret !== null && invitation.isPending))
    return <p className="text-sm text-muted-foreground">Checking your invitation…</p>;
  if (secret === null)
    return (
      <Alert variant="error" role="alert">
        This page needs the whole invitation link, including the part after “#”. Open the link you were given
        again, or ask an admin of the console for a new one.
      </Alert>
    );
  if (invitation.isError)
    return (
      <div className="flex flex-col gap-3">
        <Alert variant="error" role="alert">
          {formErrorMessage(invitation.error)}
        </Alert>
        <a href="/sign-in" className="text-sm font-medium underline underline-offset-4">
          Go to sign-in
        </a>
      </div>
    );
  if (!invitation.data) return null;
  return <ChoosePasswordForm secret={secret} email={invitation.data.email} role={invitation.data.role} />;
}

function ChoosePasswordForm({ secret, email, role }: { secret: string; email: string; role: string | null }) {
  const form = useForm<ChoosePasswordValues>({
    resolver: zodResolver(choosePasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const accept = useRouteMutation(invitationRoutes.acceptInvitation, {
    // Signed in: the console, with a full load. Where the role must have a second factor, the
    // console sends them on to enrol one.
    onSuccess: () => window.location.assign('/'),
    onError: (error) => {
      for (const { name, message } of serverFieldErrors(error, fields)) form.setError(name, { message });
    },
  });
  const onSubmit = form.handleSubmit((values) => accept.mutate({ secret, ...values }));

  return (
    <form aria-label="Choose your password" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-sm">
        You are invited as <span className="font-medium wrap-anywhere">{email}</span>
        {role ? `, ${role}` : ''}.
      </p>
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormField
        id="invitation-password"
        label="Password"
        description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={errors.password?.message}
      >
        {(control) => (
          <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />
        )}
      </FormField>
      <FormField id="invitation-confirm" label="Repeat the password" error={errors.confirmPassword?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            {...form.register('confirmPassword')}
          />
        )}
      </FormField>
      {accept.isError && serverFieldErrors(accept.error, fields).length === 0 ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(accept.error)}
        </Alert>
      ) : null}
      <Button type="submit" disabled={accept.isPending || accept.isSuccess}>
        <KeyRound aria-hidden="true" />
        {accept.isPending || accept.isSuccess ? 'Signing you in…' : 'Set password and sign in'}
      </Button>
    </form>
  );
}
