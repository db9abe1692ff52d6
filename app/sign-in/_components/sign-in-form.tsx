'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type SignInValues, signInFailureMessage, signInSchema } from './sign-in.schema';

type SignInFormProps = {
  /** Where to go once signed in (already checked to be a path on this console). */
  next: string;
  sso: { name: string } | null;
  initialError: string | null;
};

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    cache: 'no-store',
  });
}

export function SignInForm({ next, sso, initialError }: SignInFormProps) {
  const [error, setError] = useState<string | null>(initialError);
  const [ssoPending, setSsoPending] = useState(false);
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    let response: Response;
    try {
      response = await postJson('/api/auth/sign-in/email', values);
    } catch {
      setError('The console could not be reached. Check your connection and retry.');
      return;
    }
    if (response.ok) {
      // A full load: the server renders the console for the new session.
      window.location.assign(next);
      return;
    }
    const payload = (await response.json().catch(() => ({}))) as {
      code?: string;
      error?: { retryAfterSeconds?: number };
    };
    setError(signInFailureMessage(response.status, payload.code, payload.error?.retryAfterSeconds));
    form.setValue('password', '');
    form.setFocus('password');
  });

  async function signInWithSso() {
    setError(null);
    setSsoPending(true);
    try {
      const response = await postJson('/api/auth/sign-in/social', {
        provider: 'oidc',
        callbackURL: next,
        errorCallbackURL: '/sign-in',
      });
      const payload = (await response.json().catch(() => ({}))) as { url?: string };
      if (!response.ok || !payload.url) throw new Error('no redirect');
      window.location.assign(payload.url);
    } catch {
      setSsoPending(false);
      setError('Single sign-on could not start. Try again, or sign in with your password.');
    }
  }

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
        <Button type="submit" disabled={isSubmitting}>
          <LogIn aria-hidden="true" />
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {sso ? (
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-3 text-xs text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button variant="outline" onClick={signInWithSso} disabled={ssoPending}>
            {ssoPending ? 'Opening…' : `Sign in with ${sso.name}`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
