import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuditAction } from '@/lib/audit/schema';
import type { AuditSettlement } from '@/lib/audit/store';
import type { ConsoleRouteDefinition, PathParams } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import type { Environment } from '@/lib/environments';
import { hasRole, type Permission } from '@/lib/roles';
import { internalError } from './errors';
import { guardRequest } from './guard';
import { type ConsoleServer, consoleServer, type Operator } from './index';
import { logger } from './logger';
import { parseJson } from './request-body';
import { routeEnvironment } from './route-params';
import { requireRecentAuthentication, type StepUpScope } from './step-up';

/** What one request's log line says; a handler may fill in who and what as it learns them. */
export interface RequestScope {
  requestId: string;
  name: string;
  operatorId?: string;
  /** An admin reads a setup failure's detail (the variable to fix); others read it in plain words. */
  admin?: boolean;
}

/**
 * The frame of every console answer: a request id (also in `x-request-id`), one log line with
 * status and duration, `cache-control: no-store` (answers may carry tokens), and failures in the
 * documented error shape. A thrown ConsoleError is answered as is; anything else is logged by
 * name only (messages of unknown errors could carry request data) and answered `internal`.
 */
export async function handleRequest(
  name: string,
  run: (scope: RequestScope) => Promise<Response>,
): Promise<Response> {
  const scope: RequestScope = { requestId: randomUUID(), name };
  const started = performance.now();
  let response: Response;
  try {
    response = await run(scope);
  } catch (error) {
    if (!(error instanceof ConsoleError) || error.status >= 500) {
      logger.error(
        {
          operation: scope.name,
          requestId: scope.requestId,
          err: describeError(error),
          // The setup detail (which variable to fix) stays in the log whoever asked.
          ...(error instanceof ConsoleError && error.adminMessage ? { setup: error.adminMessage } : {}),
        },
        'console request failed',
      );
    }
    const failure = error instanceof ConsoleError ? error : internalError(scope.requestId);
    response = Response.json(failure.bodyFor(scope.admin === true), {
      status: failure.status,
      headers: failure.headers,
    });
  }
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-store');
  headers.set('x-request-id', scope.requestId);
  logger.info(
    {
      operation: scope.name,
      requestId: scope.requestId,
      operatorId: scope.operatorId,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
    },
    'console request',
  );
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** What the audit log keeps of an action; tokens are fingerprinted before they are stored. */
type AuditFacts = Omit<AuditSettlement, 'outcome'>;

export interface ActionAudit<Body, Result> {
  action: AuditAction;
  /** For a user group action: the environment it acts in. */
  environment?: Environment;
  /** What the request says, recorded whatever the outcome (and for refused operators). */
  request: (body: Body) => AuditFacts;
  /** What the answer adds on success. */
  result: (body: Body, result: Result) => AuditFacts;
  /** The outcome an answer is settled with; `success` unless said (show-token: `gone`). */
  outcome?: (result: Result) => string;
}

/**
 * A route's definition (lib/console-api/routes.ts: path, permission, body and answer schemas) and,
 * for an action that must be on record, its audit: the entry is written before the handler runs,
 * and nothing happens without it (503 audit_unavailable); its outcome is filled in afterwards.
 */
export type RouteSpec<Path extends string, Body, Result> = ConsoleRouteDefinition<
  Path,
  Body,
  Result,
  // A public route has a handler of its own (lib/server/invitations.ts): this wrapper needs a session.
  Permission
> & {
  audit?: ActionAudit<Body, Result>;
};

export interface RouteContext<Body, Params> {
  request: Request;
  operator: Operator;
  requestId: string;
  body: Body;
  params: Params;
  server: ConsoleServer;
}

type NextHandler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

/**
 * The one wrapper of the console's route handlers: checks origin, session and role (the
 * permission its definition declares), parses the body with the definition's schema, writes the
 * audit entry of an audited action, and answers the handler's result as JSON (or its Response as
 * is). The handler's result has the type of the answer the browser parses.
 */
export function consoleRoute<Path extends string, Body, Result>(
  spec: RouteSpec<Path, Body, Result>,
  handler: (context: RouteContext<Body, PathParams<Path>>) => Promise<Result | Response>,
): NextHandler<PathParams<Path>> {
  return (request, context) =>
    handleRequest(spec.name, async (scope) => {
      const { requestId } = scope;
      const entry = (action: AuditAction, operator: Operator, outcome: string, facts: AuditFacts) => ({
        action,
        environment: spec.audit?.environment ?? null,
        operator: { id: operator.id, email: operator.email },
        outcome,
        requestId,
        ...facts,
      });
      // The route frame is where a handler's server comes from: it is handed on from here.
      const server = await consoleServer();
      const { auditLog } = server;
      const access = await guardRequest(server, request, spec.permission, {
        beforeSecondFactor: spec.beforeSecondFactor,
      });
      scope.operatorId = access.operator?.id;
      scope.admin = hasRole(access.operator?.role, 'admin');
      if ('error' in access) {
        // A refused operator is still on record with what they tried (the body is read for that only).
        if (spec.audit && access.operator) {
          const facts = await readFacts(request, spec.body, spec.audit);
          await auditLog
            .record(entry(spec.audit.action, access.operator, access.error.code, facts))
            .catch(() => undefined);
        }
        throw access.error;
      }
      const { operator } = access;
      const params = await context.params;
      const stepUp = stepUpScope(spec.stepUp, spec.audit?.environment, params);
      if (stepUp) {
        try {
          requireRecentAuthentication(operator, stepUp, server.config);
        } catch (error) {
          if (spec.audit && error instanceof ConsoleError) {
            const facts = await readFacts(request, spec.body, spec.audit);
            await auditLog
              .record(entry(spec.audit.action, operator, error.code, facts))
              .catch(() => undefined);
          }
          throw error;
        }
      }
      let body = undefined as Body;
      if (spec.body) {
        try {
          body = await parseJson(request, spec.body, spec.maxBodyBytes);
        } catch (error) {
          if (spec.audit && error instanceof ConsoleError) {
            await auditLog.record(entry(spec.audit.action, operator, error.code, {})).catch(() => undefined);
          }
          throw error;
        }
      }
      if (!spec.audit) return respond(await handler({ request, operator, requestId, body, params, server }));

      const requestFacts = spec.audit.request(body);
      const entryId = await auditLog.record(entry(spec.audit.action, operator, 'started', requestFacts));
      let result: Result | Response;
      try {
        result = await handler({ request, operator, requestId, body, params, server });
      } catch (error) {
        const code = error instanceof ConsoleError ? error.code : 'internal';
        await auditLog.settle(entryId, { outcome: code }, requestId);
        throw error;
      }
      const resultFacts = result instanceof Response ? {} : spec.audit.result(body, result);
      const outcome = result instanceof Response ? 'success' : (spec.audit.outcome?.(result) ?? 'success');
      await auditLog.settle(entryId, { outcome, ...requestFacts, ...resultFacts }, requestId);
      return respond(result);
    });
}

/**
 * Where the definition asks for a recent authentication, read from the definition and the URL
 * alone: every environment for `always`; for `in-production`, the environment of the URL's
 * `[environment]` segment. A job's routes have none in their URL: they check in the job's
 * environment once they have read it (lib/server/jobs.ts).
 */
function stepUpScope(
  stepUp: RouteSpec<string, unknown, unknown>['stepUp'],
  audited: Environment | undefined,
  params: Record<string, string>,
): StepUpScope | null {
  if (stepUp === 'always') return 'privileges';
  if (stepUp !== 'in-production') return null;
  const environment =
    audited ?? (params.environment === undefined ? null : routeEnvironment(params.environment));
  return environment ? { environment } : null;
}

function respond(result: unknown): Response {
  return result instanceof Response ? result : Response.json(result);
}

async function readFacts<Body, Result>(
  request: Request,
  schema: z.core.$ZodType<Body> | undefined,
  actionAudit: ActionAudit<Body, Result>,
): Promise<AuditFacts> {
  if (!schema) return {};
  try {
    return actionAudit.request(await parseJson(request, schema));
  } catch {
    return {};
  }
}

/** Name and kind only: messages of unknown errors could carry request data. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, kind: (error as { kind?: string }).kind };
  return { name: typeof error };
}
