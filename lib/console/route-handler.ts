import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { describeFieldErrors, fieldErrors } from '@/lib/validation/field-errors';
import { type ConsoleFailure, consoleFailure, type Operation, toConsoleFailure } from './errors';
import { logger } from './logger';

const MAX_BODY_BYTES = 1024 * 1024;

/** Every answer may carry a token: none may be cached anywhere. */
const baseHeaders = { 'cache-control': 'no-store', 'content-type': 'application/json' };

/**
 * Adapts one user group operation to a POST route handler: reads and validates the JSON body with
 * the same schema the form uses, calls the action, and shapes success and failure alike.
 */
export function userGroupRoute<Body, Result>(
  operation: Operation,
  schema: z.ZodType<Body>,
  action: (body: Body, requestId: string) => Promise<Result>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = randomUUID();
    const started = performance.now();
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      logger.info(
        { operation, requestId, status, durationMs: Math.round(performance.now() - started) },
        'console request',
      );
      return new Response(JSON.stringify(payload), {
        status,
        headers: { ...baseHeaders, 'x-request-id': requestId, ...headers },
      });
    };
    const fail = (failure: ConsoleFailure) => answer(failure.status, failure.body, failure.headers);

    const body = await readJsonBody(request);
    if ('failure' in body) return fail(body.failure);
    const parsed = schema.safeParse(body.value);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      return fail(
        consoleFailure(400, 'invalid_request', `Check the input: ${describeFieldErrors(fields)}.`, {
          fields,
        }),
      );
    }

    try {
      return answer(200, await action(parsed.data, requestId));
    } catch (error) {
      const failure = toConsoleFailure(error, operation, requestId);
      if (failure.status >= 500) {
        logger.error({ operation, requestId, err: describeError(error) }, 'user group operation failed');
      }
      return fail(failure);
    }
  };
}

async function readJsonBody(request: Request): Promise<{ value: unknown } | { failure: ConsoleFailure }> {
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
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
    return { failure: consoleFailure(413, 'invalid_request', 'The request is larger than 1 MiB.') };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { failure: consoleFailure(400, 'invalid_request', 'The request body is not valid JSON.') };
  }
}

/** Name and kind only: messages of unknown errors could carry request data. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, kind: (error as { kind?: string }).kind };
  return { name: typeof error };
}
