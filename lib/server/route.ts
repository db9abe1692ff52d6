import 'server-only';
import { readBodyWithReason } from '@/lib/approvals/body';
import {
  type Approved,
  approvalIdOf,
  approvalNote,
  decideApproval,
  type RouteApproval,
  requestApproval,
  settleApproved,
} from '@/lib/approvals/frame';
import type { AuditAction } from '@/lib/audit/actions';
import type { AuditEntry, AuditSettlement } from '@/lib/audit/store';
import type { ConsoleRouteDefinition, PathParams, StepUp } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import type { Environment } from '@/lib/environments';
import { hasRole, type Permission } from '@/lib/roles';
import { requireRecentAuthentication, type StepUpScope } from '@/lib/two-factor/step-up';
import { guardRequest } from './guard';
import { type ConsoleServer, consoleServer, type Operator } from './index';
import { parseJson } from './request-body';
import { handleRequest } from './request-frame';
import { routeEnvironment } from './route-params';

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

/**
 * A route's definition (its feature's routes.ts, in lib/console-api/routes.ts's registry: path, permission, step-up, body and answer
 * schemas) and what the server adds to it: what the route acts on, and how the action is on record.
 */
export type RouteSpec<Path extends string, Body, Result, Subject = undefined> = ConsoleRouteDefinition<
  Path,
  Body,
  Result,
  // A public route has a handler of its own (lib/invitations/server.ts): this wrapper needs a session.
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

interface LoadContext<Body, Params> {
  server: ConsoleServer;
  operator: Operator;
  body: Body;
  params: Params;
}

/** The environment a route's URL names: `Environment` where the path has `[environment]`. */
type PathEnvironment<Path extends string> = Path extends `${string}[environment]${string}`
  ? Environment
  : Environment | null;

export interface RouteContext<Body, Path extends string, Subject = undefined> {
  request: Request;
  operator: Operator;
  requestId: string;
  body: Body;
  params: PathParams<Path>;
  server: ConsoleServer;
  environment: PathEnvironment<Path>;
  subject: Subject;
  /** The audit entry of an audited action (a started job keeps it as its own); null otherwise. */
  entryId: number | null;
  /** What the action learned that its entry should say when settled (a file's row count). */
  note: (facts: AuditFacts) => void;
}

type NextHandler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

/**
 * The one wrapper of the console's route handlers, and the one place that guards and audits them:
 * reads the URL's environment (404 for another slug), checks origin, session and role (the
 * permission its definition declares), parses the body with the definition's schema, reads what
 * the route acts on, asks for a recent authentication where the definition says so, writes the
 * audit entry of an audited action before the handler runs and settles it after, and answers the
 * handler's result as JSON (or its Response as is). Refusals of an audited action are on record
 * with their code. The handler only adapts: it calls the action and shapes the answer.
 */
export function consoleRoute<Path extends string, Body, Result, Subject = undefined>(
  spec: RouteSpec<Path, Body, Result, Subject>,
  handler: (context: RouteContext<Body, Path, Subject>) => Promise<Result | Response>,
): NextHandler<PathParams<Path>> {
  const namesEnvironment = spec.path.includes('[environment]');
  // A route that asks for a step-up in production must say where it is: never silently unguarded.
  if (
    spec.stepUp &&
    spec.stepUp !== 'always' &&
    spec.stepUp !== 'own-account' &&
    !namesEnvironment &&
    !spec.environmentOf
  )
    throw new Error(`${spec.name}: a production step-up needs [environment] in the path or environmentOf`);

  return (request, context) =>
    handleRequest(spec.name, async (scope) => {
      const { requestId } = scope;
      const params = await context.params;
      let environment: Environment | null = namesEnvironment
        ? routeEnvironment((params as Record<string, string>).environment ?? '')
        : null;
      // The route frame is where a handler's server comes from: it is handed on from here.
      const server = await consoleServer();
      const { auditLog } = server;
      const { audit } = spec;
      let subject = undefined as Subject;
      let body = undefined as Body;
      let filedUnder: string | null = null;
      const requestFacts = (): AuditFacts =>
        body === undefined && spec.body ? {} : (audit?.request?.(body, subject) ?? {});
      const entry = (operator: Operator, outcome: string, facts: AuditFacts): AuditEntry => ({
        action:
          typeof audit?.action === 'function' ? audit.action(body, subject) : (audit?.action as AuditAction),
        environment,
        operator: { id: operator.id, email: operator.email },
        outcome,
        requestId: filedUnder ?? requestId,
        ...facts,
        ...(filedUnder ? { detail: naming(facts.detail, requestId) } : {}),
      });
      // Before the subject is read, only a route without one knows what to put on record.
      const refuse = async (operator: Operator | null, error: unknown) => {
        if (audit && operator && error instanceof ConsoleError && (!spec.load || subject !== undefined)) {
          const code = audit.refusal?.(error.code) ?? error.code;
          await auditLog.record(entry(operator, code, safely(requestFacts))).catch(() => undefined);
        }
        return error;
      };

      const access = await guardRequest(server, request, spec.permission, {
        beforeSecondFactor: spec.beforeSecondFactor,
      });
      scope.operatorId = access.operator?.id;
      scope.admin = hasRole(access.operator?.role, 'admin');
      if ('error' in access) {
        // A refused operator is still on record with what they tried (the body is read for that only).
        if (audit && !spec.load && spec.body)
          body = await parseJson(request, spec.body).catch(() => undefined as Body);
        throw await refuse(access.operator, access.error);
      }
      const { operator } = access;
      // A decision on a request for this action (`?approval=<id>`); once approved, the action runs
      // below as its requester asked it, on record with both names.
      let approved: Approved | null = null;
      let reason: unknown;
      const approvalId = spec.approval ? approvalIdOf(request) : null;
      if (approvalId !== null) {
        const decided = await decideApproval({
          server,
          route: spec,
          request,
          requestId,
          operator,
          id: approvalId,
          schema: spec.body,
        });
        if ('answer' in decided) return decided.answer;
        approved = decided.approved;
        body = approved.body as Body;
      } else if (spec.body) {
        try {
          if (spec.approval)
            ({ body, reason } = await readBodyWithReason(request, spec.body, spec.maxBodyBytes));
          else body = await parseJson(request, spec.body, spec.maxBodyBytes);
        } catch (error) {
          throw await refuse(operator, error);
        }
      }
      const actor = approved?.requester ?? operator;
      // Once claimed, an approval is settled with its action's outcome, whatever it is.
      const failed = async (error: unknown): Promise<never> => {
        if (approved)
          await settleApproved(server, approved, error instanceof ConsoleError ? error.code : 'internal');
        throw error;
      };
      if (spec.load) {
        subject = await spec.load({ server, operator: actor, body, params }).catch(failed);
        environment = spec.environmentOf?.(subject) ?? environment;
        filedUnder = audit?.filedUnder?.(subject) ?? null;
        try {
          spec.check?.(body, subject);
        } catch (error) {
          if (approved) await failed(error).catch(() => undefined);
          throw await refuse(operator, error);
        }
      }
      const stepUp = stepUpScope(
        typeof spec.stepUp === 'function' ? spec.stepUp(body) : spec.stepUp,
        environment,
      );
      // An approved action's approver stepped up to approve it; its requester, to ask for it.
      if (stepUp && !approved) {
        try {
          requireRecentAuthentication(operator, stepUp, server.config);
        } catch (error) {
          throw await refuse(operator, error);
        }
      }
      if (spec.approval && audit && !approved) {
        const route = {
          name: spec.name,
          method: spec.method as 'POST' | 'PATCH',
          permission: spec.permission,
        };
        const context = {
          server,
          approval: spec.approval,
          route,
          request,
          requestId,
          operator,
          body,
          subject,
        };
        // A refusal here (no reason, the same request already waiting) is on record like any other.
        const pending = await requestApproval({
          ...context,
          environment,
          reason,
          facts: requestFacts(),
        }).catch(async (error) => {
          throw await refuse(operator, error);
        });
        if (pending) return pending;
      }
      const noted: AuditFacts = {};
      const run = (entryId: number | null) =>
        handler({
          request,
          operator: actor,
          requestId,
          body,
          params,
          server,
          environment: environment as PathEnvironment<Path>,
          subject,
          entryId,
          note: (facts) => Object.assign(noted, facts),
        });
      if (!audit) return respond(await run(null));

      const asked = requestFacts();
      const facts = approved ? { ...asked, detail: approvalNote(approved, asked.detail) } : asked;
      // What the settlement adds; a detail filed under another id names the request again.
      const settling = (added: AuditFacts): AuditFacts =>
        filedUnder && added.detail !== undefined
          ? { ...added, detail: naming(added.detail, requestId) }
          : added;
      const result = await auditLog
        .audited(entry(actor, 'started', facts), run, {
          refused: (code) => ({ outcome: audit.refusal?.(code) ?? code, ...settling(noted) }),
          settled: (answer) => {
            if (answer instanceof Response)
              return { outcome: 'success', ...settling({ ...facts, ...noted }) };
            const outcome = audit.outcome ? audit.outcome(answer, body) : 'success';
            if (outcome === null) return null;
            const added = audit.result?.(body, answer, subject) ?? {};
            return { outcome, ...settling({ ...facts, ...added, ...noted }) };
          },
        })
        .catch(failed);
      return approved
        ? settleApproved(server, approved, 'success', result, spec.approval?.approverSees)
        : respond(result);
    });
}

/** A detail filed under another id than its request's names the request. */
function naming(detail: string | null | undefined, requestId: string): string {
  return detail ? `${detail}; request ${requestId}` : `request ${requestId}`;
}

/** What a refusal's entry says, when the request says anything readable. */
function safely(facts: () => AuditFacts): AuditFacts {
  try {
    return facts();
  } catch {
    return {};
  }
}

/**
 * Where the definition asks for a recent authentication: every environment for `always` (changes
 * of access) and `own-account` (one's own ways in); for
 * `in-production`, the environment of the URL or of what the route acts on. The definition may
 * ask only for some bodies (a job's start and resume, not its pause).
 */
function stepUpScope(stepUp: StepUp | null | undefined, environment: Environment | null): StepUpScope | null {
  if (stepUp === 'always') return 'privileges';
  if (stepUp === 'own-account') return 'own-account';
  if (stepUp !== 'in-production') return null;
  // consoleRoute refuses such a definition without an environment; this is the belt to those braces.
  if (!environment) throw new Error('a production step-up without an environment');
  return { environment };
}

function respond(result: unknown): Response {
  return result instanceof Response ? result : Response.json(result);
}
