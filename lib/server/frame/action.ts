import 'server-only';
import type { Approved, RouteApproval } from '@/lib/approvals/frame';
import type { AuditAction } from '@/lib/audit/actions';
import type { AuditSettlement } from '@/lib/audit/store';
import type { ConsoleRouteDefinition, PathParams } from '@/lib/console-api/routes';
import type { Environment } from '@/lib/environments';
import type { Permission } from '@/lib/roles';
import type { ConsoleServer, Operator } from '../index';

/** What the audit log keeps of an action; tokens are fingerprinted before they are stored. */
export type AuditFacts = Omit<AuditSettlement, 'outcome'>;

/**
 * How an action is on record. Its entry is written before the handler runs (nothing happens
 * without it: 503 audit_unavailable) and settled after it, with the outcome or the refusal's code.
 */
export interface ActionAudit<Body, Result, Subject = undefined> {
  /** The action, or which one the body and the subject say (a role change, a disable). */
  action: AuditAction | ((body: Body, subject: Subject) => AuditAction);
  /** What the request says, recorded whatever the outcome (for a refused operator too). */
  request?: (body: Body, subject: Subject) => AuditFacts;
  /** What the answer adds on success. */
  result?: (body: Body, result: Result, subject: Subject) => AuditFacts;
  /**
   * The outcome an answer is settled with; `success` unless said (show-token: `gone`). Null leaves
   * the entry `started` for whoever ends the action (a started job's runner).
   */
  outcome?: (result: Result, body: Body) => string | null;
  /** A refusal's code as the entry says it (a step-up's wrong proof). */
  refusal?: (code: string) => string;
  /**
   * Filed under an id other than the request's: a job's entries under the job's id, so that they
   * fold into its line on the audit page (the request's id is then named in the detail).
   */
  filedUnder?: (subject: Subject) => string;
}

interface LoadContext<Body, Params> {
  server: ConsoleServer;
  operator: Operator;
  body: Body;
  params: Params;
  /** The environment the URL names (null where it names none). */
  environment: Environment | null;
}

/**
 * A route's definition (its feature's routes.ts: path, permission, step-up, body and answer
 * schemas) and what the server adds to it: what the route acts on, and how the action is on record.
 */
export type RouteSpec<Path extends string, Body, Result, Subject = undefined> = ConsoleRouteDefinition<
  Path,
  Body,
  Result,
  // A public route goes through the frame with the `anyone` guard (lib/server/frame/guards.ts).
  Permission
> & {
  /**
   * What the route acts on (an operator, a job), read once the request is allowed: a 404 here is
   * not on record. A refusal before it is known is on record only for a route without one.
   */
  load?: (context: LoadContext<Body, PathParams<Path>>) => Promise<Subject>;
  /**
   * A refusal known once the subject is read (a directory-managed operator): checked before any
   * step-up or approval request, so that nothing waits for a second person that can only fail; on
   * record like the action's other refusals.
   */
  check?: (body: Body, subject: Subject) => void;
  /** The environment of a route whose URL names none (a job's): where its step-up and entry are. */
  environmentOf?: (subject: Subject) => Environment;
  audit?: ActionAudit<Body, Result, Subject>;
  /** Where CONSOLE_REQUIRE_APPROVAL may name the action: it then waits for a second operator. */
  approval?: RouteApproval<Body, Subject>;
};

/**
 * One console action as the stages learn it: each stage reads what the ones before it found and
 * adds its own (the body, the subject, the environment, an approval decided).
 */
export interface Action<Path extends string, Body, Result, Subject> {
  spec: RouteSpec<Path, Body, Result, Subject>;
  server: ConsoleServer;
  request: Request;
  requestId: string;
  params: PathParams<Path>;
  /** Who asks; an approved action runs as its requester (`actor`). */
  operator: Operator;
  environment: Environment | null;
  body: Body;
  subject: Subject;
  filedUnder: string | null;
  /** A decision (`?approval=<id>`) that let this action run as its requester asked it. */
  approved: Approved | null;
  /** The reason a request for approval gives (read with the body). */
  reason: unknown;
}

/** Who the action runs as: its requester once approved, the operator asking otherwise. */
export const actorOf = (action: Pick<Action<string, unknown, unknown, unknown>, 'approved' | 'operator'>) =>
  action.approved?.requester ?? action.operator;
