'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, LogIn } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSignIn, useSignInWithPasskey } from '@/app/sign-in/_hooks/use-sign-in';
import { useStartSingleSignOn } from '@/app/sign-in/_hooks/use-start-single-sign-on';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { SecondFactorForm } from './second-factor-form';
import {
  passkeySignInFailureMessage,
  type SignInValues,
  SSO_START_FAILED_MESSAGE,
  signInFailureMessage,
  signInSchema,
} from './sign-in.schema';

type SignInFormProps = {
  /** Where to go once signed in (already checked to be a path on this console). */
  next: string;
  sso: { name: string } | null;
  /** The console's address lets browsers use passkeys (lib/passkeys/store.ts's passkeysWorkAt). */
  passkeys: boolean;
  initialError: string | null;
};

export function SignInForm({ next, sso, passkeys, initialError }: SignInFormProps) {
  const [error, setError] = useState<string | null>(initialError);
  const [secondFactor, setSecondFactor] = useState(false);
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const signIn = useSignIn(next, {
    onError: (failure) => {
      setError(signInFailureMessage(failure));
      form.setValue('password', '');
      form.setFocus('password');
    },
    onSecondFactor: () => setSecondFactor(true),
  });
  const startSingleSignOn = useStartSingleSignOn(next, {
    onError: () => setError(SSO_START_FAILED_MESSAGE),
  });
  const signInWithPasskey = useSignInWithPasskey(next, {
    onError: (failure) => setError(passkeySignInFailureMessage(failure)),
  });
  // Still true while the browser leaves for the identity provider.
  const ssoStarting = startSingleSignOn.isPending || startSingleSignOn.isSuccess;

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    signIn.mutate(values);
  });

  function signInWithSso() {
    setError(null);
    startSingleSignOn.mutate(undefined);
  }

  if (secondFactor)
    return (
      <SecondFactorForm
        next={next}
        onStartAgain={() => {
          setSecondFactor(false);
          signIn.reset();
          form.setValue('password', '');
        }}
      />
    );

  return (
    <div className="flex flex-col gap-5">
      {error ? (
        <Alert variant="error" role="alert">
          {error}
        </Alert>
      ) : null}
      <form aria-label="Sign in" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormField id="email" label="Email" error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="username" autoFocus {...form.register('email')} />
          )}
        </FormField>
        <FormField id="password" label="Password" error={errors.password?.message}>
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="current-password"
              {...form.register('password')}
            />
          )}
        </FormField>
        <Button type="submit" disabled={signIn.isPending}>
          <LogIn aria-hidden="true" />
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {sso || passkeys ? (
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-3 text-xs text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          {passkeys ? (
            <Button
              variant="outline"
              disabled={signInWithPasskey.isPending || signInWithPasskey.isSuccess}
              onClick={() => {
                setError(null);
                signInWithPasskey.mutate();
              }}
            >
              <KeyRound aria-hidden="true" />
              {signInWithPasskey.isPending || signInWithPasskey.isSuccess
                ? 'Waiting for your passkey…'
                : 'Sign in with a passkey'}
            </Button>
          ) : null}
          {sso ? (
            <Button variant="outline" onClick={signInWithSso} disabled={ssoStarting}>
              {ssoStarting ? 'Opening…' : `Sign in with ${sso.name}`}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
