'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type ChangePasswordValues, changePasswordSchema } from '@/lib/auth/operators.schema';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth/password-policy';

class ChangePasswordError extends Error {}

async function changePassword(values: ChangePasswordValues): Promise<void> {
  const response = await fetch('/api/auth/change-password', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
      revokeOtherSessions: true,
    }),
    cache: 'no-store',
  }).catch(() => {
    throw new ChangePasswordError('The console could not be reached. Check your connection and retry.');
  });
  if (response.ok) return;
  const payload = (await response.json().catch(() => ({}))) as { code?: string };
  if (payload.code === 'INVALID_PASSWORD') throw new ChangePasswordError('The current password is wrong.');
  if (response.status === 429)
    throw new ChangePasswordError('Too many attempts. Wait a minute, then try again.');
  throw new ChangePasswordError(`The password was not changed (HTTP ${response.status}).`);
}

export function ChangePasswordForm() {
  const [changed, setChanged] = useState(false);
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      setChanged(true);
      form.reset();
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    setChanged(false);
    change.mutate(values);
  });

  const passwordField = (
    name: keyof ChangePasswordValues,
    label: string,
    autoComplete: string,
    description?: string,
  ) => (
    <FormField id={name} label={label} description={description} error={errors[name]?.message}>
      {(control) => (
        <Input {...control} type="password" autoComplete={autoComplete} {...form.register(name)} />
      )}
    </FormField>
  );

  return (
    <form
      aria-label="Change password"
      noValidate
      onSubmit={onSubmit}
      className="flex max-w-sm flex-col gap-4"
    >
      {passwordField('currentPassword', 'Current password', 'current-password')}
      {passwordField(
        'newPassword',
        'New password',
        'new-password',
        `At least ${MIN_PASSWORD_LENGTH} characters.`,
      )}
      {passwordField('confirmPassword', 'New password again', 'new-password')}
      {change.isError ? (
        <Alert variant="error" role="alert">
          {change.error instanceof ChangePasswordError
            ? change.error.message
            : 'The password was not changed.'}
        </Alert>
      ) : null}
      {changed ? (
        <Alert variant="success" role="status">
          Password changed. Your other sessions have ended.
        </Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
