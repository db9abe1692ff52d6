import type { Metadata } from 'next';
import { PasteTokenConsole } from '@/app/(console)/_components/paste-token-console';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { environmentTitle, pageEnvironment } from '../_components/environment';

type PasteTokenPageProps = { params: Promise<{ environment: string }> };

export async function generateMetadata({ params }: PasteTokenPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'Paste a token') };
}

/** Tokens from elsewhere: whose each is; one the console never saw can still be rotated or deleted. */
export default async function PasteTokenPage({ params }: PasteTokenPageProps) {
  const environment = await pageEnvironment(params);
  const { operator } = await pageContext('user-groups:rotate');
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Paste a token</h1>
        <p className="text-sm text-muted-foreground">
          For a token from a customer&apos;s configuration or message: find whose it is, then act on it from
          its group&apos;s page.
        </p>
      </div>
      <PasteTokenConsole
        environment={environment}
        allowed={{ rotate: true, delete: can(operator.role, 'user-groups:delete') }}
      />
    </div>
  );
}
