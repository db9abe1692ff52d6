'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, useTransition } from 'react';
import { Input } from '@/components/ui/input';
import { groupPath } from './paths';

type DirectorySearchProps = { initialQuery: string; slug: string };

/** A pasted token looks like this: it must not end up in a URL or the browser's history. */
const looksLikeToken = (text: string) => /^[0-9a-f]{64}$/i.test(text);

/**
 * The search field the environment opens on. Typing filters the list below (the URL's `q`, so a
 * search is a link too); Enter on an id opens that group's page, whether the console knows it yet
 * or not.
 */
export function DirectorySearch({ initialQuery, slug }: DirectorySearchProps) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const [query, setQuery] = useState(initialQuery);
  const [pending, startTransition] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The search this field last put in the URL: another change of the URL (a link) resets the field.
  const sent = useRef(initialQuery);

  if (initialQuery !== sent.current) {
    sent.current = initialQuery;
    setQuery(initialQuery);
  }

  const trimmed = query.trim();
  const token = looksLikeToken(trimmed);

  useEffect(() => {
    if (trimmed === sent.current || token) return;
    timer.current = setTimeout(() => {
      sent.current = trimmed;
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
        clearTimeout(timer.current);
        if (trimmed && !token) router.push(groupPath(slug, trimmed));
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
        placeholder="Part of an ID or a name; Enter opens an exact ID"
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        className="font-mono"
        autoFocus
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground" aria-live="polite">
        {token ? (
          <>
            That looks like a token, which is not searched (it would land in the address bar).{' '}
            <Link
              href={`/${slug}/paste-token`}
              className="font-medium text-foreground underline underline-offset-4"
            >
              Paste a token
            </Link>{' '}
            instead.
          </>
        ) : pending ? (
          'Searching…'
        ) : (
          'Typing filters the list. Enter opens the group with exactly that ID.'
        )}
      </p>
    </form>
  );
}
