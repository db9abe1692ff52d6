'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, useTransition } from 'react';
import { handOverToken } from '@/components/token-handoff';
import { Input } from '@/components/ui/input';
import { maskedText } from '@/components/ui/masked-text';
import { callRoute } from '@/lib/browser-client/console-client';
import { directoryQueryString } from '@/lib/directory/contract';
import { directoryRoutes } from '@/lib/directory/routes';
import { looksLikeToken } from '@/lib/tokens/contract';
import { groupPath } from './paths';

type DirectorySearchProps = {
  initialQuery: string;
  slug: string;
  /** The role may identify tokens (support, admin); a viewer is told so where they are. */
  mayIdentify: boolean;
};

/** The first group the list shows, focused so that Enter opens it. */
const focusFirstResult = () =>
  document.querySelector<HTMLElement>('[data-testid="directory-row"] a[href]')?.focus();

/**
 * The search field the environment opens on. Typing filters the list below (the URL's `q`, so a
 * search is a link too). Enter opens the group of exactly that id, else the only match, else moves
 * to the first of several (Enter again opens it); with no match the page offers the create form,
 * which Enter never opens by itself. A token typed or pasted here goes to Identify, in memory: never to the URL.
 */
export function DirectorySearch({ initialQuery, slug, mayIdentify }: DirectorySearchProps) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const [query, setQuery] = useState(initialQuery);
  const [pending, startTransition] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The search this field last put in the URL, and every one it put there since the URL last
  // changed otherwise: the page catching up with an earlier one (typing went on meanwhile) must not
  // take back what was typed since; only another change of the URL (a link) resets the field.
  const sent = useRef(initialQuery);
  const ours = useRef(new Set<string>([initialQuery]));
  const [shown, setShown] = useState(initialQuery);

  if (initialQuery !== shown) {
    setShown(initialQuery);
    if (!ours.current.has(initialQuery)) {
      sent.current = initialQuery;
      setQuery(initialQuery);
    }
    ours.current = new Set([initialQuery, sent.current]);
  }

  const trimmed = query.trim();
  const token = looksLikeToken(trimmed);
  const [focusResultsFor, setFocusResultsFor] = useState<string | null>(null);

  // Enter on several matches: once the list shows them, the first is focused.
  useEffect(() => {
    if (focusResultsFor !== null && focusResultsFor === initialQuery && !pending) {
      setFocusResultsFor(null);
      focusFirstResult();
    }
  }, [focusResultsFor, initialQuery, pending]);

  const identify = () => {
    // A viewer stays here: the hint below says why (never a page their role may not open).
    if (!mayIdentify) return;
    handOverToken(trimmed);
    router.push(`/${slug}/paste-token`);
  };

  const enter = async () => {
    clearTimeout(timer.current);
    if (!trimmed) return;
    if (token) return identify();
    const { groups } = await callRoute(directoryRoutes.directorySearch, {
      params: { environment: slug },
      query: directoryQueryString({ q: trimmed, pageSize: 2 }),
    }).catch(() => ({ groups: [] as { userGroupId: string }[] }));
    const exact = groups.find((group) => group.userGroupId === trimmed);
    const only = groups.length === 1 ? groups[0] : undefined;
    const chosen = exact ?? only;
    if (chosen) return router.push(groupPath(slug, chosen.userGroupId));
    // None: the list says so and offers the create form (never opened by Enter). Several: the first.
    if (sent.current === trimmed) return groups.length > 0 ? focusFirstResult() : undefined;
    sent.current = trimmed;
    ours.current.add(trimmed);
    if (groups.length > 0) setFocusResultsFor(trimmed);
    startTransition(() => router.replace(`${pathname}?q=${encodeURIComponent(trimmed)}`, { scroll: false }));
  };

  useEffect(() => {
    if (trimmed === sent.current || token) return;
    timer.current = setTimeout(() => {
      sent.current = trimmed;
      ours.current.add(trimmed);
      startTransition(() =>
        router.replace(`${pathname}${trimmed ? `?q=${encodeURIComponent(trimmed)}` : ''}`, { scroll: false }),
      );
    }, 200);
    return () => clearTimeout(timer.current);
  }, [trimmed, token, pathname, router]);

  // Following a link (a group in the list) must not be overtaken by a search still waiting to run.
  useEffect(() => {
    const cancel = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('a[href]')) clearTimeout(timer.current);
    };
    document.addEventListener('click', cancel, true);
    return () => document.removeEventListener('click', cancel, true);
  }, []);

  return (
    <form
      aria-label="User groups"
      onSubmit={(event) => {
        event.preventDefault();
        void enter();
      }}
      className="flex flex-col gap-2"
    >
      <label htmlFor={id} className="text-sm font-medium">
        Find a user group
      </label>
      <Input
        id={id}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        // Only what the role can do: a viewer cannot identify tokens, so is not asked to paste one.
        placeholder={mayIdentify ? 'Part of an ID or a name, or paste a token' : 'Part of an ID or a name'}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        // A pasted token is a secret on screen: drawn as dots, never in clear (Identify names it).
        className={token ? `font-mono ${maskedText}` : 'font-mono'}
        data-masked={token || undefined}
        autoFocus
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground" aria-live="polite">
        {token && !mayIdentify ? (
          'That looks like a token: it is not searched (it would land in the address bar), and your role cannot identify tokens.'
        ) : token ? (
          <>
            That looks like a token: it is not searched (it would land in the address bar). Enter, or{' '}
            <button
              type="button"
              onClick={identify}
              className="font-medium text-foreground underline underline-offset-4"
            >
              identify it
            </button>
            , says whose it is.
          </>
        ) : pending ? (
          'Searching…'
        ) : (
          'Typing filters the list. Enter opens the group with that exact ID, or the first match.'
        )}
      </p>
    </form>
  );
}
