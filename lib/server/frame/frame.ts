import 'server-only';
import { type ConsoleServer, consoleServer } from '../index';
import { answerRequest, type FailureAnswer, type RequestScope } from './answer';

/**
 * The guard stage, first of every request: who is asking, or the refusal. Its kind is the route's
 * (a session with a permission for the console's routes, SCIM's bearer token, nobody for the
 * public ones: sign-in, invitations).
 */
export type Guard<Actor> = (
  server: ConsoleServer,
  request: Request,
  scope: RequestScope,
  params: unknown,
) => Promise<{ actor: Actor } | { refused: unknown; actor: Actor | null }>;

/** What the stages after the guard are handed. */
export interface Guarded<Params, Actor> {
  request: Request;
  params: Params;
  server: ConsoleServer;
  actor: Actor;
  scope: RequestScope;
}

export interface FrameOptions<Actor> {
  /** The request's name in the log (the auth proxy's says which endpoint). */
  name: string | ((request: Request) => string);
  guard: Guard<Actor>;
  /** Before a refusal is answered (the console's routes put a refused operator on record). */
  onRefused?: (
    refused: unknown,
    actor: Actor | null,
    input: Omit<Guarded<unknown, Actor>, 'actor'>,
  ) => Promise<void>;
  /** Failures in another shape than the documented one (SCIM's error schema). */
  failure?: FailureAnswer;
  /** Where the server comes from: the console's, a test's. */
  server?: () => Promise<ConsoleServer>;
}

/** A route handler as Next calls it. */
export type NextHandler<Params> = (
  request: Request,
  context: { params: Promise<Params> },
) => Promise<Response>;

/**
 * The one frame of every API route: answer stage around everything (request id, log line, error
 * shape), the server (asked for inside it, so that one that cannot start is answered in the
 * documented shape), then the guard, then the route's own stages (`run`: body, load, step-up,
 * approval, audited run for the console's routes; SCIM's and the auth proxy's handlers).
 */
export function requestFrame<Params, Actor>(
  options: FrameOptions<Actor>,
  run: (input: Guarded<Params, Actor>) => Promise<Response>,
): (request: Request, context?: { params: Promise<Params> }) => Promise<Response> {
  return (request, context) =>
    answerRequest(
      typeof options.name === 'function' ? options.name(request) : options.name,
      async (scope) => {
        const server = await (options.server ?? consoleServer)();
        scope.timing = { clock: server.clock, started: server.clock.monotonic() };
        const params = (await context?.params) as Params;
        const guarded = await options.guard(server, request, scope, params);
        if ('refused' in guarded) {
          await options.onRefused?.(guarded.refused, guarded.actor, { request, params, server, scope });
          throw guarded.refused;
        }
        return run({ request, params, server, actor: guarded.actor, scope });
      },
      options.failure,
    );
}
