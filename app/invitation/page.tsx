import type { Metadata } from 'next';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { pageContext } from '@/lib/server/page-context';
import { AcceptInvitation } from './_components/accept-invitation';

export const metadata: Metadata = { title: 'Accept your invitation · User Group Console' };

/**
 * Public: where an invitation link leads. The link's secret is in its fragment (`#…`), which the
 * browser keeps to itself; the page reads it and sends it in POST bodies only.
 */
export default async function InvitationPage() {
  const { operator: signedIn } = await pageContext('anyone');
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-base leading-tight font-semibold">Join the User Group Console</h1>
          <CardDescription>Choose your password to accept the invitation an admin gave you.</CardDescription>
        </CardHeader>
        <CardContent>
          <AcceptInvitation signedInAs={signedIn?.email ?? null} />
        </CardContent>
      </Card>
    </main>
  );
}
