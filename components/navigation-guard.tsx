'use client';

/**
 * Asks before the person leaves a page that holds something they would lose (a fresh token not yet
 * copied). Next's App Router has no way to block a route change, so while a guard is active this
 * module listens where leaving starts:
 *
 * - reload, closing the tab, another site: `beforeunload` (the browser's own question);
 * - a click on a link to another page of the console (header, breadcrumb, anywhere): caught on the
 *   document before Next's Link sees it, asked in the guard's dialog, then followed with the router;
 * - Back: a second history entry of the same URL is pushed while the guard holds (nothing in its
 *   state but Next's own), so Back lands on the page's own entry, where the guard asks again;
 * - code that navigates (the command palette, sign-out): `navigateGuarded(() => router.push(href))`.
 *
 * One listener set for the page, whatever the number of guards; the newest active guard asks.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface Holder {
  /** Opens the guard's question; `leave` runs if the person confirms. */
  ask: (leave: () => void) => void;
  /** Follows an in-app link. */
  push: (href: string) => void;
}

const holders: Holder[] = [];

/** The extra history entry of the page, while guarded: its Navigation API key where there is one. */
let guardEntry: { key: string | null; href: string } | null = null;

const newestHolder = () => holders.at(-1) ?? null;

function currentEntryKey(): string | null {
  const { navigation } = window as { navigation?: { currentEntry?: { key: string } | null } };
  return navigation?.currentEntry?.key ?? null;
}

function onGuardEntry(): boolean {
  if (!guardEntry) return false;
  const key = currentEntryKey();
  return key !== null && guardEntry.key !== null
    ? key === guardEntry.key
    : window.location.href === guardEntry.href;
}

function pushGuardEntry(): void {
  // The page's own state (the router's, never a token): passed as is, Next's patched pushState
  // writes it without dispatching a restore, which would discard a refresh in flight.
  window.history.pushState(window.history.state, '', window.location.href);
  guardEntry = { key: currentEntryKey(), href: window.location.href };
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (holders.length === 0) return;
  event.preventDefault();
  // Older browsers ask only when this is set; none shows the text.
  event.returnValue = 'Leave this page?';
}

/** A plain click on a link to another page of the console: asked first, followed if confirmed. */
function onClick(event: MouseEvent): void {
  const holder = newestHolder();
  if (!holder || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
  if (anchor.target && anchor.target !== '_self') return;
  const url = new URL(anchor.href, window.location.href);
  // Another site is the browser's to ask about (beforeunload); a link within the page leaves nothing.
  if (url.origin !== window.location.origin) return;
  const here = new URL(window.location.href);
  if (url.pathname === here.pathname && url.search === here.search && url.hash !== '') return;
  event.preventDefault();
  event.stopPropagation();
  holder.ask(() => release(() => holder.push(`${url.pathname}${url.search}${url.hash}`)));
}

/** Back from the guard entry: the page stays (the router is not told), and the guard asks. */
function onPopState(event: PopStateEvent): void {
  if (!guardEntry) return;
  const backOnThePage = window.location.href === guardEntry.href;
  guardEntry = null;
  const holder = newestHolder();
  // Further back at once (the history menu): the router takes it from here.
  if (!backOnThePage || !holder) return;
  event.stopImmediatePropagation();
  pushGuardEntry();
  holder.ask(() => release(() => window.history.back()));
}

function attach(): void {
  window.addEventListener('beforeunload', onBeforeUnload);
  document.addEventListener('click', onClick, true);
  // Capture: before the router's own listener, which would otherwise restore the page.
  window.addEventListener('popstate', onPopState, true);
  if (!guardEntry) pushGuardEntry();
}

/** Stops guarding: drops the guard entry (its popstate is the module's own), then runs `then`. */
function release(then: () => void = () => undefined): void {
  holders.length = 0;
  window.removeEventListener('beforeunload', onBeforeUnload);
  document.removeEventListener('click', onClick, true);
  window.removeEventListener('popstate', onPopState, true);
  if (!onGuardEntry()) {
    guardEntry = null;
    then();
    return;
  }
  guardEntry = null;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    window.removeEventListener('popstate', swallow, true);
    clearTimeout(timer);
    then();
  };
  const swallow = (event: PopStateEvent) => {
    event.stopImmediatePropagation();
    finish();
  };
  const timer = setTimeout(finish, 1000);
  window.addEventListener('popstate', swallow, true);
  window.history.back();
}

function register(holder: Holder): () => void {
  if (holders.length === 0) attach();
  holders.push(holder);
  return () => {
    const index = holders.indexOf(holder);
    if (index === -1) return;
    holders.splice(index, 1);
    // Later, not now: React may mount the guard again at once (Strict Mode, a refresh).
    setTimeout(() => {
      if (holders.length === 0) release();
    }, 0);
  };
}

/**
 * Runs `navigate` now, or, while a guard is active, once the person has confirmed leaving. For code
 * that navigates on its own: `navigateGuarded(() => router.push(href))`.
 */
export function navigateGuarded(navigate: () => void): void {
  const holder = newestHolder();
  if (!holder) {
    navigate();
    return;
  }
  holder.ask(() => release(navigate));
}

type NavigationGuardProps = {
  /** Whether leaving should ask now. */
  active: boolean;
  title: string;
  description: string;
  stayLabel: string;
  leaveLabel: string;
};

/** While `active`, leaving the page by any way asks first, in this dialog (or the browser's). */
export function NavigationGuard({ active, title, description, stayLabel, leaveLabel }: NavigationGuardProps) {
  const router = useRouter();
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);

  useEffect(() => {
    if (!active) return;
    return register({
      ask: (leave) => setPendingLeave(() => leave),
      push: (href) => router.push(href),
    });
  }, [active, router]);

  return (
    <ConfirmDialog
      open={pendingLeave !== null}
      onOpenChange={(open) => {
        if (!open) setPendingLeave(null);
      }}
      title={title}
      description={description}
      cancelLabel={stayLabel}
      confirmLabel={leaveLabel}
      destructive
      onConfirm={() => {
        const leave = pendingLeave;
        setPendingLeave(null);
        leave?.();
      }}
    />
  );
}
