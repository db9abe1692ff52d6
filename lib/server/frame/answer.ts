import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Clock } from '@/lib/clock';
import { ConsoleError } from '@/lib/console-error';
import { internalError } from '../errors';
import { logger } from '../logger';

/** What one request's log line says; the stages fill in who and what as they learn them. */
export interface RequestScope {
  requestId: string;
  name: string;
  operatorId?: string;
  /** An admin reads a setup failure's detail (the variable to fix); others read it in plain words. */
  admin?: boolean;
  /** The console's clock and its reading once the server is known: the log line's duration. */
  timing?: { clock: Pick<Clock, 'monotonic'>; started: number };
}

/** How a failure is answered where the caller is no browser (SCIM's error schema); null: as usual. */
export type FailureAnswer = (error: unknown, scope: RequestScope) => Response | null;

/**
 * The answer stage, last of every request (and its frame around the others): a request id (also
 * in `x-request-id`), one log line with status and duration, `cache-control: no-store` (answers may
 * carry tokens), and failures in the documented error shape. A thrown ConsoleError is answered as
 * is; anything else is logged by name only (messages of unknown errors could carry request data)
 * and answered `internal`.
 */
export async function answerRequest(
  name: string,
  run: (scope: RequestScope) => Promise<Response>,
  failure?: FailureAnswer,
): Promise<Response> {
  const scope: RequestScope = { requestId: randomUUID(), name };
  let response: Response;
  try {
    response = await run(scope);
  } catch (error) {
    response = failure?.(error, scope) ?? documentedFailure(error, scope);
  }
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-store');
  headers.set('x-request-id', scope.requestId);
  const { timing } = scope;
  // An answered request at debug: at the default level (info) a line per request buried the start-up
  // output (the first admin's password, #43 item 8). A refusal (4xx) stays at info, a failure is
  // logged at error (logFailure).
  logger[response.status >= 400 ? 'info' : 'debug'](
    {
      operation: scope.name,
      requestId: scope.requestId,
      operatorId: scope.operatorId,
      status: response.status,
      durationMs: timing ? Math.round(timing.clock.monotonic() - timing.started) : undefined,
    },
    'console request',
  );
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A failure in the documented error shape (lib/server/errors.ts), logged unless it is a refusal. */
function documentedFailure(error: unknown, scope: RequestScope): Response {
  if (!(error instanceof ConsoleError) || error.status >= 500) logFailure(error, scope);
  const failure = error instanceof ConsoleError ? error : internalError(scope.requestId);
  return Response.json(failure.bodyFor(scope.admin === true), {
    status: failure.status,
    headers: failure.headers,
  });
}

export function logFailure(error: unknown, scope: RequestScope): void {
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

/** Name and kind only: messages of unknown errors could carry request data. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, kind: (error as { kind?: string }).kind };
  return { name: typeof error };
}
