/**
 * The way a page changes something with one console route: `useMutation` over callRoute
 * (./console-client.ts), typed from the route's definition. The page names the route and its path's
 * params; `mutate` takes the route's body (nothing for a route without one) and the callbacks get
 * its checked answer. What pages would otherwise repeat after it is a flag: `refresh` for what the
 * server rendered, `invalidates` for a cached query. Failures are callRoute's: a ConsoleApiError in
 * the console's words, after the step-up dialog where the route asks for one.
 */
import { type QueryKey, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { ConsoleRouteDefinition, PathParams } from '@/lib/console-api/define-route';
import { type CallInput, callRoute, isWaiting, type WaitingForApproval } from './console-client';

/** What `mutate` takes: the route's body, or nothing for a route that reads none. */
// biome-ignore lint/suspicious/noConfusingVoidType: only `void` lets `mutate()` be called without an argument.
type RouteBody<Body> = [Body] extends [undefined] ? void : Body;

type RouteMutationOptions<Path extends string, Body, Answer> = Pick<CallInput<Path, Body>, 'params'> &
  Pick<UseMutationOptions<Answer, Error, RouteBody<Body>>, 'onSuccess' | 'onError' | 'onSettled'> & {
    /** The page's server-rendered data is read again (router.refresh) once it succeeds, before onSuccess. */
    refresh?: boolean;
    /** A cached query read again once it settles, done or refused: the mutation ends when it is. */
    invalidates?: QueryKey;
    /**
     * The action waits for another operator's approval (a 202): called instead of onSuccess. Without
     * it, such an answer is refused in words (callRoute).
     */
    onWaiting?: (waiting: WaitingForApproval['waiting']) => void;
  };

/** A route without path params may leave the options out; one with them may not. */
type OptionsOf<Path extends string, Body, Answer> = [keyof PathParams<Path>] extends [never]
  ? [options?: RouteMutationOptions<Path, Body, Answer>]
  : [options: RouteMutationOptions<Path, Body, Answer>];

export function useRouteMutation<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  ...[options]: OptionsOf<Path, Body, Answer>
) {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useMutation(
    routeMutationOptions(route, options ?? {}, {
      refreshPage: () => router.refresh(),
      invalidate: (queryKey) => queryClient.invalidateQueries({ queryKey }),
    }),
  );
}

/** The router and the query cache, as the hook hands them over. */
type PageEffects = { refreshPage: () => void; invalidate: (queryKey: QueryKey) => Promise<void> };

/** The hook's useMutation options, apart from React: tested with a MutationObserver. */
export function routeMutationOptions<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  {
    params,
    refresh,
    invalidates,
    onSuccess,
    onError,
    onSettled,
    onWaiting,
  }: RouteMutationOptions<Path, Body, Answer>,
  { refreshPage, invalidate }: PageEffects,
): UseMutationOptions<Answer, Error, RouteBody<Body>> {
  // A waiting answer comes only with onWaiting, and goes to it, never to onSuccess. Typed as the
  // route's answer for the pages that follow none; one with onWaiting tells `data` by isWaiting.
  const options: UseMutationOptions<Answer | WaitingForApproval, Error, RouteBody<Body>> = {
    // RouteBody<Body> is the body the route takes (void when none): CallInput's conditional types
    // cannot see that through the generic Body, hence the assertion.
    mutationFn: (body) => {
      const input = { params, body } as CallInput<Path, Body>;
      return onWaiting
        ? callRoute<Path, Body, Answer>(route, Object.assign(input, { mayWait: true as const }))
        : callRoute<Path, Body, Answer>(route, input);
    },
    onSuccess: (answer, ...rest) => {
      // Nothing has been done yet: the page is not read again and onSuccess waits for the decision.
      if (isWaiting(answer)) return onWaiting?.(answer.waiting);
      if (refresh) refreshPage();
      return onSuccess?.(answer as Answer, ...rest);
    },
    onError,
    onSettled: async (answer, ...rest) => {
      if (invalidates) await invalidate(invalidates);
      return onSettled?.(answer as Answer | undefined, ...rest);
    },
  };
  return options as UseMutationOptions<Answer, Error, RouteBody<Body>>;
}
