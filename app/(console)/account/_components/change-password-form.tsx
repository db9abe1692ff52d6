'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  changePasswordFailureMessage,
  useChangePassword,
} from '@/app/(console)/account/_hooks/use-change-password';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { MIN_PASSWORD_LENGTH } from '@/lib/limits';
import { type ChangePasswordValues, changePasswordSchema } from './change-password.schema';

export function ChangePasswordForm() {
  const [changed, setChanged] = useState(false);
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const change = useChangePassword({
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
          {changePasswordFailureMessage(change.error)}
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
