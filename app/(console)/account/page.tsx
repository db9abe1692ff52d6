import type { Metadata } from 'next';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { operatorHasPassword } from '@/lib/operators/store';
import { passkeysWorkAt } from '@/lib/passkeys/store';
import { roleDescriptions } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { mustKeepSecondFactor, secondFactorDue } from '@/lib/two-factor/step-up';
import { ChangePasswordForm } from './_components/change-password-form';
import { ConfirmSecondFactorOnDemand } from './_components/confirm-second-factor-on-demand';
import { PasskeysCard } from './_components/passkeys-card';
import { SessionsList } from './_components/sessions-list';
import { TwoFactorCard } from './_components/two-factor-card';

export const metadata: Metadata = { title: 'Account · User Group Console' };

/** Every operator's own page: who they are, what their role allows, their password and second factor. */
export default async function AccountPage() {
  const { server, operator } = await pageContext('console:use');
  const config = server.config;
  const due = secondFactorDue(operator, config);
  const hasPassword = await operatorHasPassword(server.database.db, operator.id);
  const required = mustKeepSecondFactor(operator, config);
  // Operators with a console password (signed in with it or a passkey); SSO operators' IdP decides.
  const usesPassword = operator.session.signInMethod !== 'sso';
  const heading = (
    <div className="flex flex-col gap-1.5">
      <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
      <p className="text-sm text-muted-foreground">
        Signed in as <span className="font-medium text-foreground">{operator.email}</span> with the role{' '}
        <span className="font-medium text-foreground">{operator.role ?? 'none'}</span>.{' '}
        {operator.role ? roleDescriptions[operator.role] : 'Ask an admin of the console for a role.'}
      </p>
    </div>
  );
  // A session that has not proved the second factor the operator has sees only its second step:
  // nothing else on this page (a new factor, other sessions) is theirs to change with a password alone.
  if (due === 'confirm')
    return (
      <div className="flex flex-col gap-6">
        {heading}
        <Card>
          <CardHeader>
            <CardTitle>Confirm your second factor</CardTitle>
            <CardDescription>
              {operator.session.signInMethod === 'sso'
                ? `Your role (${operator.role}) must use its second factor after single sign-on too.`
                : 'You have a second factor: a password alone does not open the console.'}{' '}
              Confirm with it to go on.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ConfirmSecondFactorOnDemand
              authenticator={operator.twoFactorEnabled}
              passkey={
                operator.passkeys === 0 ? 'none' : passkeysWorkAt(config.consoleUrl) ? 'usable' : 'unusable'
              }
              consoleOrigin={config.consoleUrl.origin}
            />
          </CardContent>
        </Card>
      </div>
    );
  return (
    <div className="flex flex-col gap-6">
      {heading}
      {due === 'enrol' ? (
        <Alert variant="error" role="alert">
          Your role ({operator.role}) must have a second factor: add a passkey or set up an authenticator app
          below to use the console.
        </Alert>
      ) : null}
      {usesPassword || operator.twoFactorEnabled || due === 'enrol' ? (
        <Card>
          <CardHeader>
            <CardTitle>Two-factor authentication</CardTitle>
            <CardDescription>
              A code from an app on your phone, asked after your password. It also confirms it is you before
              Customer tokens and changes.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorCard
              enabled={operator.twoFactorEnabled}
              required={required && operator.passkeys === 0}
              hasPassword={hasPassword}
            />
          </CardContent>
        </Card>
      ) : null}
      {usesPassword || operator.passkeys > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>Passkeys</CardTitle>
            <CardDescription>
              A passkey signs you in on its own, with your device’s PIN, fingerprint or face, and confirms it
              is you before Customer tokens and changes. It counts as a second factor.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <PasskeysCard
              usable={passkeysWorkAt(config.consoleUrl)}
              consoleOrigin={config.consoleUrl.origin}
              keepLast={required && !operator.twoFactorEnabled}
            />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>Changing it signs you out everywhere else.</CardDescription>
        </CardHeader>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sessions</CardTitle>
          <CardDescription>
            Where you are signed in. Ending a session signs that browser out on its next request.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SessionsList />
        </CardContent>
      </Card>
    </div>
  );
}
