import { ClipboardPaste, Layers } from 'lucide-react';
import { headers } from 'next/headers';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { CommandPaletteLauncher } from '@/components/command-palette-launcher';
import { PaletteEarlyKeysScript } from '@/components/palette-early-keys';
import { cn } from '@/components/ui/cn';
import { environmentLooks, environments, slugOf } from '@/lib/environments';
import { can, hasRole } from '@/lib/roles';
import { NOT_SET_UP, notConfiguredForAdmins } from '@/lib/server/errors';
import { pageContext } from '@/lib/server/page-context';
import { pageEnvironment } from './_components/environment';

/** A page of the band: a word from sm up; on a phone an icon with room for a finger. */
const bandLink =
  'inline-flex items-center justify-center rounded-md underline-offset-4 hover:underline max-sm:size-8 max-sm:hover:bg-black/5';

type EnvironmentLayoutProps = { children: ReactNode; params: Promise<{ environment: string }> };

/**
 * Every page of one environment: a band that says which one, in its own colour (Customer red, like
 * production; Testing blue, a sandbox), its pages, and a plain notice when it has no API key. The
 * band stays at the top of the screen while the page scrolls: whatever a person is about to do,
 * production says so.
 */
export default async function EnvironmentLayout({ children, params }: EnvironmentLayoutProps) {
  const environment = await pageEnvironment(params);
  const { server, operator } = await pageContext('console:use');
  const mayPasteToken = can(operator.role, 'user-groups:rotate');
  const look = environmentLooks[environment];
  const slug = slugOf[environment];
  const { upstreams } = server.config;
  const configured = upstreams[environment] !== null;
  const environmentStates = environments.map((each) => ({
    environment: each,
    configured: upstreams[each] !== null,
  }));
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-label="Environment"
        data-environment={slug}
        className={cn(
          // One compact line on a phone (at most 48 px: it covers nothing), wrapping from sm up.
          'sticky top-0 z-30 flex items-center gap-x-3 gap-y-1.5 rounded-lg border px-3 py-1.5 shadow-xs sm:flex-wrap sm:px-4 sm:py-2.5',
          environment === 'Customer'
            ? 'border-red-700/40 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100'
            : 'border-blue-700/40 bg-blue-50 text-blue-900 dark:bg-blue-950 dark:text-blue-100',
        )}
      >
        <p className="shrink-0 text-sm">
          <strong className="font-semibold" data-testid="environment-name">
            {look.label}
          </strong>{' '}
          <span className="uppercase tracking-wide text-xs font-semibold">({look.kind})</span>
          <span className="hidden sm:inline"> — {look.description}</span>
        </p>
        <nav
          aria-label={`${look.label} pages`}
          className="ml-auto flex min-w-0 items-center gap-1 text-sm font-medium whitespace-nowrap sm:flex-wrap sm:gap-3"
        >
          {/* On a phone the header's "User groups" is this link; the others are icons, named. */}
          <Link href={`/${slug}`} className="hidden underline-offset-4 hover:underline sm:inline">
            Groups
          </Link>
          <Link href={`/${slug}/bulk`} title="Bulk jobs" className={bandLink}>
            <Layers aria-hidden="true" className="size-4 sm:hidden" />
            <span className="sr-only sm:not-sr-only">Bulk jobs</span>
          </Link>
          {mayPasteToken ? (
            <Link href={`/${slug}/paste-token`} title="Paste a token" className={bandLink}>
              <ClipboardPaste aria-hidden="true" className="size-4 sm:hidden" />
              <span className="sr-only sm:not-sr-only">Paste a token</span>
            </Link>
          ) : null}
        </nav>
        <div className="shrink-0">
          <PaletteEarlyKeysScript nonce={nonce} />
          <CommandPaletteLauncher
            environment={environment}
            environments={environmentStates}
            mayPasteToken={mayPasteToken}
            mayCreate={can(operator.role, 'user-groups:get-or-create')}
          />
        </div>
      </section>
      {configured ? null : (
        <p role="status" className="rounded-lg border border-border bg-card px-4 py-3 text-sm">
          {hasRole(operator.role, 'admin') ? notConfiguredForAdmins(environment) : NOT_SET_UP} Its directory
          and history can be read; nothing can be sent to it.
        </p>
      )}
      {children}
    </div>
  );
}
