import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/browser-client/console-client';
import { directoryQueryString } from '@/lib/directory/contract';
import { directoryRoutes } from '@/lib/directory/routes';
import { type Environment, slugOf } from '@/lib/environments';
import { looksLikeToken } from '@/lib/tokens/contract';
import { useDebounced } from './use-debounced';

/** How long typing pauses before the directory is searched. */
const SEARCH_DELAY_MS = 150;

const directorySearch = (environment: Environment, search: string) =>
  queryOptions({
    queryKey: ['directory', environment, search],
    queryFn: ({ signal }) =>
      callRoute(directoryRoutes.directorySearch, {
        params: { environment: slugOf[environment] },
        query: directoryQueryString({ q: search, pageSize: 8 }),
        signal,
      }),
    retry: false,
  });

/**
 * The palette's search of the directory for what is typed (trimmed), once typing pauses. Only
 * the answer for the text typed now counts: an older one lists no group.
 */
export function usePaletteDirectorySearch(environment: Environment, typed: string) {
  const token = looksLikeToken(typed);
  const searched = useDebounced(token ? '' : typed, SEARCH_DELAY_MS);
  // A token is never searched: it would travel in the search's URL.
  const directory = useQuery({
    ...directorySearch(environment, searched),
    enabled: searched !== '' && !token,
  });
  const current = typed !== '' && searched === typed;
  const groups = current ? (directory.data?.groups ?? []) : [];
  return {
    /** What is typed looks like a token: nothing is searched. */
    token,
    groups,
    /** What is typed has no answer yet: Enter waits for it. */
    searching: !token && typed !== '' && (!current || directory.isFetching),
    noGroupFound: current && directory.isSuccess && groups.length === 0,
    /** The search failed, in the console's words. */
    failure: current && directory.isError ? directory.error.message : null,
  };
}
