import { connection } from 'next/server';
import { ConsoleMark } from '@/components/console-mark';
import { NotFoundMessage } from '@/components/not-found-message';

/**
 * The 404 of an address outside the console's pages (one that no route matches): the console's
 * header band and one `<main>`, with the way back. Within the console's pages (an unknown
 * environment, a bulk job or a group that is not there) app/(console)/not-found.tsx answers, inside
 * their header and `<main>`. Rendered for each request, never prerendered: a prerendered page's
 * scripts carry no nonce, and the page's Content-Security-Policy (proxy.ts) refuses them. No
 * inline style element either (Next's own 404 page has one, which the policy refuses too).
 */
export default async function NotFound() {
  await connection();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-border bg-card">
        <div className="mx-auto flex min-h-14 w-full max-w-6xl items-center gap-2.5 px-4 py-2 sm:px-6">
          <ConsoleMark />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        <NotFoundMessage />
      </main>
    </div>
  );
}
