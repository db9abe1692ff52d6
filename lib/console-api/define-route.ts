/**
 * What a console route's definition holds (method, path, permission, body and answer schemas,
 * step-up), `defineRoute` to write one with its types kept, and `routePath` to fill in its URL.
 * Each feature defines its routes in its own `routes.ts`; lib/console-api/routes.ts gathers them.
 * Plain module: the browser imports it.
 */
import type * as z from 'zod/mini';
import type { Permission } from '@/lib/roles';

type RouteMethod = 'GET' | 'POST' | 'PATCH';

/** `public`: anyone, signed in or not (accepting an invitation); its handler guards itself. */
type RoutePermission = Permission | 'public';

export interface ConsoleRouteDefinition<
  Path extends string = string,
  Body = unknown,
  Answer = unknown,
  Access extends RoutePermission = RoutePermission,
> {
  /** The request's name in the log. */
  name: string;
  method: RouteMethod;
  /** As under app/: `/api/jobs/[id]`. */
  path: Path;
  permission: Access;
  /** The body's schema, the same the form uses; without it the body is not read. */
  body?: z.core.$ZodType<Body>;
  /** The answer's schema; without it the route answers a file (CSV), which the browser saves. */
  answer?: z.core.$ZodType<Answer>;
  /** The largest body the route reads; default MAX_BODY_BYTES (1 MiB). */
  maxBodyBytes?: number;
  /**
   * The action needs a recent authentication (lib/two-factor/step-up.ts), which the route frame
   * enforces from here; the browser's client then asks for one and sends the request again.
   * - `in-production`: in Customer only: the environment the URL's `[environment]` segment names,
   *   or, for a job's routes (`/api/jobs/[id]`), the job's own (the route frame reads it).
   * - `always`: in every environment. Changes to who may do what (operators, roles, invitations,
   *   another's second factor or sessions): a new admin could otherwise read Customer tokens at once.
   * - `own-account`: in every environment, for a change to one's own ways in (a passkey removed).
   * - `own-account-password`: the same for an operator without a console password (SSO); one with
   *   a password sends it in the body instead (`password`), which better-auth checks.
   */
  stepUp?: StepUp | ((body: Body) => StepUp | null);
  /**
   * Reachable before the session's second factor is settled (lib/two-factor/step-up.ts):
   * - `to-enrol`: by an operator who must still enrol one (the enrolment itself), never by a session
   *   that must confirm the one it has: a password alone must not add a second factor of its own.
   * - `to-confirm`: by both (confirming it, the step-up).
   */
  beforeSecondFactor?: 'to-enrol' | 'to-confirm';
}

/** Where an action needs a recent authentication (ConsoleRouteDefinition's `stepUp`). */
export type StepUp = 'in-production' | 'always' | 'own-account' | 'own-account-password';

type ParamNames<Path extends string> = Path extends `${string}[${infer Name}]${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** `/api/jobs/[id]` → `{ id: string }`. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };

/**
 * The audit actions a route writes (`['rename']`), declared on its definition: the audit log's list
 * of actions (its filter, its type) takes them from here (lib/audit/actions.ts), so a new action is
 * named once. The server's part of the route (its feature's handlers.ts) says when each is written.
 */
export interface DeclaredAudits<Audits extends readonly string[]> {
  audits?: Audits;
}

/** A route's definition, its literal path and its schemas' types kept (an annotation would widen them). */
export function defineRoute<
  const Path extends string,
  Body = undefined,
  Answer = Response,
  const Access extends RoutePermission = Permission,
  const Audits extends readonly string[] = readonly [],
>(
  route: ConsoleRouteDefinition<Path, Body, Answer, Access> & DeclaredAudits<Audits>,
): ConsoleRouteDefinition<Path, Body, Answer, Access> & DeclaredAudits<Audits> {
  return route;
}

/** The URL of a route, its `[name]` segments filled in (encoded). */
export function routePath<Path extends string>(
  route: Pick<ConsoleRouteDefinition<Path>, 'path'>,
  params: PathParams<Path>,
): string {
  return route.path.replace(/\[(\w+)\]/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  );
}
