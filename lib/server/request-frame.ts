import 'server-only';
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '@/lib/console-error';
import { internalError } from './errors';
import { logger } from './logger';

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
  // An answered request at debug: at the default level (info) a line per request buried the start-up
  // output (the first admin's password, #43 item 8). A refusal (4xx) stays at info, a failure is
  // logged above at error.
  logger[response.status >= 400 ? 'info' : 'debug'](
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

/** Name and kind only: messages of unknown errors could carry request data. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, kind: (error as { kind?: string }).kind };
  return { name: typeof error };
}
