import 'server-only';
import type { PathParams } from '@/lib/console-api/routes';
import type { Environment } from '@/lib/environments';
import { type Action, type AuditFacts, actorOf, type RouteSpec } from './frame/action';
import { decideStage, requestStage, settleFailedApproval, settleSucceededApproval } from './frame/approval';
import { auditedStage, recordRefusal, requestFacts } from './frame/audited';
import { bodyStage } from './frame/body';
import { type Guard, type NextHandler, requestFrame } from './frame/frame';
import { sessionGuard } from './frame/guards';
import { checkStage, loadStage } from './frame/load';
import { assertStepUpPlaced, stepUpStage } from './frame/step-up';
import type { ConsoleServer, Operator } from './index';
import { parseJson } from './request-body';
import { routeEnvironment } from './route-params';

export type { ActionAudit, AuditFacts, RouteSpec } from './frame/action';

/** A console route's handler as Next calls it, with the method and path of the definition it serves. */
export type DefinedHandler<Params> = NextHandler<Params> & { route: { method: string; path: string } };

/** The environment a route's URL names: `Environment` where the path has `[environment]`. */
type PathEnvironment<Path extends string> = Path extends `${string}[environment]${string}`
  ? Environment
  : Environment | null;

interface RouteContext<Body, Path extends string, Subject = undefined> {
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

type Handler<Path extends string, Body, Result, Subject> = (
  context: RouteContext<Body, Path, Subject>,
) => Promise<Result | Response>;

/**
 * The console's routes in the one frame (lib/server/frame/), stage by stage: guard (the URL's
 * environment, origin, session, second factor, permission) → body → load → step-up → approval →
 * audited run → answer. Each stage is a function of its own; a refusal of an audited action is on
 * record with its code, whichever stage refused. The handler only adapts: it calls the action and
 * shapes the answer (JSON, or its Response as is).
 */
export function consoleRoute<Path extends string, Body, Result, Subject = undefined>(
  spec: RouteSpec<Path, Body, Result, Subject>,
  handler: Handler<Path, Body, Result, Subject>,
): DefinedHandler<PathParams<Path>> {
  assertStepUpPlaced(spec);
  assertAuditDeclared(spec);
  const served = requestFrame<PathParams<Path>, Operator>(
    {
      name: spec.name,
      guard: consoleGuard(spec),
      // A refused operator is still on record with what they tried (the body is read for that only).
      onRefused: async (refused, operator, { request, server, scope, params }) => {
        const action = newAction(
          spec,
          { request, server, requestId: scope.requestId, params: params as PathParams<Path> },
          operator,
        );
        if (spec.audit && !spec.load && spec.body)
          action.body = await parseJson(request, spec.body).catch(() => undefined as Body);
        await recordRefusal(action, operator, refused);
      },
    },
    async ({ request, params, server, actor, scope }) => {
      const action = newAction(spec, { request, server, requestId: scope.requestId, params }, actor);
      return runStages(action, handler);
    },
  );
  // What it serves goes with it: a feature's one app/ file can then route to it (./route-table.ts).
  return Object.assign(served, { route: { method: spec.method, path: spec.path } });
}

/**
 * An action the route writes by name is one its definition declares (`audits`), so that the audit
 * log's list (lib/audit/actions.ts, read from the definitions) has it: checked as the route is built.
 */
function assertAuditDeclared(spec: {
  name: string;
  audit?: { action: unknown };
  audits?: readonly string[];
}) {
  const action = spec.audit?.action;
  if (typeof action === 'string' && !spec.audits?.includes(action))
    throw new Error(
      `The route ${spec.name} writes ${action}, which its definition does not declare (audits).`,
    );
}

/** The URL's environment first (404 for another slug, whoever asks), then the session's guard. */
function consoleGuard(spec: {
  path: string;
  permission: RouteSpec<string, unknown, unknown>['permission'];
  beforeSecondFactor?: 'to-enrol' | 'to-confirm';
}): Guard<Operator> {
  const session = sessionGuard(spec.permission, { beforeSecondFactor: spec.beforeSecondFactor });
  return async (server, request, scope, params) => {
    if (spec.path.includes('[environment]'))
      routeEnvironment((params as Record<string, string>).environment ?? '');
    return session(server, request, scope, params);
  };
}

function newAction<Path extends string, Body, Result, Subject>(
  spec: RouteSpec<Path, Body, Result, Subject>,
  from: { request: Request; server: ConsoleServer; requestId: string; params: PathParams<Path> },
  operator: Operator | null,
): Action<Path, Body, Result, Subject> {
  const environment = spec.path.includes('[environment]')
    ? routeEnvironment((from.params as Record<string, string>).environment ?? '')
    : null;
  return {
    spec,
    ...from,
    operator: operator as Operator,
    environment,
    body: undefined as Body,
    subject: undefined as Subject,
    filedUnder: null,
    approved: null,
    reason: undefined,
  };
}

/** The stages after the guard, in order; each refusal on record, an approval settled with any outcome. */
async function runStages<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  handler: Handler<Path, Body, Result, Subject>,
): Promise<Response> {
  const refusing = async (error: unknown): Promise<never> => {
    await recordRefusal(action, action.operator, error);
    throw error;
  };
  const failing = async (error: unknown): Promise<never> => {
    await settleFailedApproval(action, error);
    throw error;
  };
  const decided = await decideStage(action);
  if (decided) return decided;
  await bodyStage(action).catch(refusing);
  await loadStage(action).catch(failing);
  try {
    checkStage(action);
  } catch (error) {
    await failing(error).catch(() => undefined);
    await refusing(error);
  }
  await stepUpStage(action).catch(refusing);
  const pending = await requestStage(action, action.spec.audit ? requestFacts(action) : {}).catch(refusing);
  if (pending) return pending;

  const noted: AuditFacts = {};
  const run = (entryId: number | null) =>
    handler({
      request: action.request,
      operator: actorOf(action),
      requestId: action.requestId,
      body: action.body,
      params: action.params,
      server: action.server,
      environment: action.environment as PathEnvironment<Path>,
      subject: action.subject,
      entryId,
      note: (facts) => Object.assign(noted, facts),
    });
  if (!action.spec.audit) return respond(await run(null));
  const result = await auditedStage(action, noted, run).catch(failing);
  return (await settleSucceededApproval(action, result)) ?? respond(result);
}

function respond(result: unknown): Response {
  return result instanceof Response ? result : Response.json(result);
}
