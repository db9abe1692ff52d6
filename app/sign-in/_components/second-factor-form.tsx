'use client';

import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useVerifySecondFactor } from '@/app/sign-in/_hooks/use-sign-in';
import { FormField } from '@/components/form-field';
import { OneTimeCodeField } from '@/components/one-time-code-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { secondFactorFailureMessage } from './sign-in.schema';

type SecondFactorFormProps = {
  next: string;
  /** Back to the email and password (the challenge has expired, or it was the wrong account). */
  onStartAgain: () => void;
};

/** The sign-in's second step: the code the authenticator app shows, or a backup code. */
export function SecondFactorForm({ next, onStartAgain }: SecondFactorFormProps) {
  const [kind, setKind] = useState<'totp' | 'backup-code'>('totp');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const verify = useVerifySecondFactor(next);
  const error = missing
    ? kind === 'totp'
      ? 'Enter the 6 digits your app shows.'
      : 'Enter one of your backup codes.'
    : undefined;

  return (
    <form
      aria-label="Second factor"
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const typed = code.replace(/\s+/g, '');
        setMissing(typed === '');
        if (typed !== '') verify.mutate({ code: typed, kind });
      }}
    >
      {verify.isError ? (
        <Alert variant="error" role="alert">
          {secondFactorFailureMessage(verify.error)}
        </Alert>
      ) : null}
      {kind === 'totp' ? (
        <OneTimeCodeField
          id="second-factor-code"
          label="Authenticator code"
          description="The 6 digits your authenticator app shows for User Group Console."
          error={error}
          autoFocus
          value={code}
          onChange={setCode}
        />
      ) : (
        <FormField
          id="second-factor-backup"
          label="Backup code"
          description="One of the ten codes you saved when you set up the app; each works once."
          error={error}
        >
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              spellCheck={false}
              autoFocus
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          )}
        </FormField>
      )}
      <Button type="submit" disabled={verify.isPending || verify.isSuccess}>
        <ShieldCheck aria-hidden="true" />
        {verify.isPending || verify.isSuccess ? 'Checking…' : 'Sign in'}
      </Button>
      <div className="flex flex-wrap justify-between gap-2">
        <Button
          variant="ghost"
          size="sm"
          className="underline underline-offset-4"
          onClick={() => {
            setKind(kind === 'totp' ? 'backup-code' : 'totp');
            setCode('');
            setMissing(false);
            verify.reset();
          }}
        >
          {kind === 'totp' ? 'Use a backup code instead' : 'Use the authenticator app instead'}
        </Button>
        <Button variant="ghost" size="sm" className="underline underline-offset-4" onClick={onStartAgain}>
          Start again
        </Button>
      </div>
    </form>
  );
}
