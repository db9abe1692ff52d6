import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { safeReturnPath } from '@/lib/auth/return-path';
import { passkeysWorkAt } from '@/lib/passkeys/store';
import { pageContext } from '@/lib/server/page-context';
import { ssoErrorMessage } from './_components/sign-in.schema';
import { SignInForm } from './_components/sign-in-form';

export const metadata: Metadata = { title: 'Sign in · User Group Console' };

type SignInPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const next = safeReturnPath(params.next);
  const { server, operator } = await pageContext('anyone');
  if (operator) redirect(next);
  const { oidc, consoleUrl } = server.config;
  const error = typeof params.error === 'string' ? params.error : undefined;

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-base leading-tight font-semibold">Sign in to the User Group Console</h1>
          <CardDescription>Operators only. Ask an admin of the console for an account.</CardDescription>
        </CardHeader>
        <CardContent>
          <SignInForm
            next={next}
            sso={oidc ? { name: oidc.displayName } : null}
            passkeys={passkeysWorkAt(consoleUrl)}
            initialError={ssoErrorMessage(error)}
          />
        </CardContent>
      </Card>
    </main>
  );
}
