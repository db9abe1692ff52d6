import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AuditUnavailableError, audit, settleAudit } from '@/lib/audit/server';
import { guardRequest } from '@/lib/auth/guard';
import type { Permission } from '@/lib/auth/roles';
import type { Operator } from '@/lib/auth/server';
import { fieldErrors } from '@/lib/validation/field-errors';
import {
  auditUnavailable,
  type ConsoleFailure,
  consoleFailure,
  invalidRequest,
  type Operation,
  toConsoleFailure,
} from './errors';
import { logger } from './logger';
import { readBodyText } from './request-body';

/** Every answer may carry a token: none may be cached anywhere. */
const baseHeaders = { 'cache-control': 'no-store', 'content-type': 'application/json' };

const operationPermission: Record<Operation, Permission> = {
  'get-or-create': 'user-groups:get-or-create',
  rotate: 'user-groups:rotate',
  delete: 'user-groups:delete',
};

/** What the audit log keeps of one operation; tokens are fingerprinted before they are stored. */
export interface AuditFacts {
  userGroupId?: string | null;
  userGroupName?: string | null;
  token?: string | null;
  previousToken?: string | null;
}

export interface OperationAudit<Body, Result> {
  /** What the request says, recorded whatever the outcome. */
  request: (body: Body) => AuditFacts;
  /** What the answer adds on success. */
  result: (body: Body, result: Result) => AuditFacts;
}

/**
 * Adapts one user group operation to a POST route handler: checks origin, session and role, reads
 * and validates the JSON body with the same schema the form uses, calls the action, writes the
 * audit entry, and shapes success and failure alike.
 */
export function userGroupRoute<Body, Result>(
  operation: Operation,
  schema: z.ZodType<Body>,
  action: (body: Body, requestId: string) => Promise<Result>,
  auditFacts: OperationAudit<Body, Result>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = randomUUID();
    const started = performance.now();
    let operator: Operator | null = null;
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      logger.info(
        {
          operation,
          requestId,
          operatorId: operator?.id,
          status,
          durationMs: Math.round(performance.now() - started),
        },
        'console request',
      );
      return new Response(JSON.stringify(payload), {
        status,
        headers: { ...baseHeaders, 'x-request-id': requestId, ...headers },
      });
    };
    const entryOf = (outcome: string, facts: AuditFacts) => ({
      action: operation,
      operator: operator ? { id: operator.id, email: operator.email } : null,
      outcome,
      requestId,
      ...facts,
    });
    // A refusal did nothing worth withholding: it is answered even when its entry cannot be written.
    const fail = async (failure: ConsoleFailure, facts: AuditFacts = {}) => {
      if (operator) await audit(entryOf(failure.body.error.code, facts)).catch(() => undefined);
      return answer(failure.status, failure.body, failure.headers);
    };

    const access = await guardRequest(request, operationPermission[operation]);
    operator = access.operator;
    if ('failure' in access) {
      // A refused operator is still on record with what they tried (the body is read for that only).
      return fail(
        access.failure,
        access.reason === 'forbidden' ? await namedFacts(request, schema, auditFacts.request) : {},
      );
    }

    const parsed = await parseJsonRequest(request, schema);
    if ('failure' in parsed) return fail(parsed.failure);

    // The entry is written before the upstream call, and nothing is sent without it: no token is
    // returned, rotated or deleted off the record. Its outcome is filled in afterwards.
    const requestFacts = auditFacts.request(parsed.data);
    let entryId: number;
    try {
      entryId = await audit(entryOf('started', requestFacts));
    } catch {
      const failure = auditUnavailable(requestId);
      return answer(failure.status, failure.body);
    }
    let result: Result;
    try {
      result = await action(parsed.data, requestId);
    } catch (error) {
      const failure = toConsoleFailure(error, operation, requestId);
      if (failure.status >= 500) {
        logger.error({ operation, requestId, err: describeError(error) }, 'user group operation failed');
      }
      await settleAudit(entryId, { outcome: failure.body.error.code }, requestId);
      return answer(failure.status, failure.body, failure.headers);
    }
    await settleAudit(entryId, { outcome: 'success', ...auditFacts.result(parsed.data, result) }, requestId);
    return answer(200, result);
  };
}

export interface OperatorRequest<Params> {
  request: Request;
  operator: Operator;
  requestId: string;
  params: Params;
}

/**
 * Adapts a console route that is not a user group operation (audit log, recent groups, operators):
 * the same origin, session and role checks, the same error shape, no caching. The handler returns
 * a Response (CSV) or a JSON payload with its status.
 */
export function operatorRoute<Params extends Record<string, string> = Record<string, never>>(
  name: string,
  permission: Permission,
  handler: (context: OperatorRequest<Params>) => Promise<Response | { status?: number; body: unknown }>,
): (request: Request, context: { params: Promise<Params> }) => Promise<Response> {
  return async (request, context) => {
    const requestId = randomUUID();
    const started = performance.now();
    let operatorId: string | undefined;
    const finish = (response: Response) => {
      response.headers.set('cache-control', 'no-store');
      response.headers.set('x-request-id', requestId);
      logger.info(
        {
          operation: name,
          requestId,
          operatorId,
          status: response.status,
          durationMs: Math.round(performance.now() - started),
        },
        'console request',
      );
      return response;
    };
    const json = (status: number, payload: unknown) =>
      finish(
        new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } }),
      );

    const access = await guardRequest(request, permission);
    if ('failure' in access) return json(access.failure.status, access.failure.body);
    operatorId = access.operator.id;
    try {
      const params = await context.params;
      const outcome = await handler({ request, operator: access.operator, requestId, params });
      return outcome instanceof Response ? finish(outcome) : json(outcome.status ?? 200, outcome.body);
    } catch (error) {
      if (error instanceof AuditUnavailableError) {
        const failure = auditUnavailable(requestId);
        return json(failure.status, failure.body);
      }
      logger.error({ operation: name, requestId, err: describeError(error) }, 'console request failed');
      const failure = consoleFailure(
        500,
        'internal',
        `Something went wrong in the console (request ${requestId}).`,
        {
          requestId,
        },
      );
      return json(failure.status, failure.body);
    }
  };
}

export async function readJsonBody(
  request: Request,
): Promise<{ value: unknown } | { failure: ConsoleFailure }> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    return {
      failure: consoleFailure(
        415,
        'invalid_request',
        'Send the request as JSON (Content-Type: application/json).',
      ),
    };
  }
  const body = await readBodyText(request);
  if ('tooLarge' in body) {
    return { failure: consoleFailure(413, 'invalid_request', 'The request is larger than 1 MiB.') };
  }
  try {
    return { value: JSON.parse(body.text) };
  } catch {
    return { failure: consoleFailure(400, 'invalid_request', 'The request body is not valid JSON.') };
  }
}

/** Reads the JSON body and validates it with the form's schema: the data, or the failure to answer. */
export async function parseJsonRequest<Body>(
  request: Request,
  schema: z.ZodType<Body>,
): Promise<{ data: Body } | { failure: ConsoleFailure }> {
  const body = await readJsonBody(request);
  if ('failure' in body) return body;
  const parsed = schema.safeParse(body.value);
  return parsed.success ? { data: parsed.data } : { failure: invalidRequest(fieldErrors(parsed.error)) };
}

async function namedFacts<Body>(
  request: Request,
  schema: z.ZodType<Body>,
  factsOf: (body: Body) => AuditFacts,
): Promise<AuditFacts> {
  const parsed = await parseJsonRequest(request, schema);
  return 'failure' in parsed ? {} : factsOf(parsed.data);
}

/** Name and kind only: messages of unknown errors could carry request data. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, kind: (error as { kind?: string }).kind };
  return { name: typeof error };
}
