import type { Metadata } from 'next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { roleDescriptions } from '@/lib/roles';
import { requirePageOperator } from '@/lib/server/page-guard';
import { ChangePasswordForm } from './_components/change-password-form';

export const metadata: Metadata = { title: 'Account · User Group Console' };

/** Every operator's own page: who they are, what their role allows, their password. */
export default async function AccountPage() {
  const operator = await requirePageOperator('console:read');
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
        <p className="text-sm text-muted-foreground">
          Signed in as <span className="font-medium text-foreground">{operator.email}</span> with the role{' '}
          <span className="font-medium text-foreground">{operator.role ?? 'none'}</span>.{' '}
          {operator.role ? roleDescriptions[operator.role] : 'Ask an admin of the console for a role.'}
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>Changing it signs you out everywhere else.</CardDescription>
        </CardHeader>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    </div>
  );
}
