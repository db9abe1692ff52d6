/**
 * The browser's side of the console contract: one typed call per route handler, its answer parsed
 * with the contract's schema. Used by the mutation hooks; every failure becomes a ConsoleApiError
 * with a message a person can act on.
 */

import * as z from 'zod/mini';
import type { Environment } from '@/lib/environments';
import type { DeleteRequest, GetOrCreateRequest, RotateRequest } from '@/lib/user-group-api/contract';
import {
  type ConsoleErrorCode,
  consoleErrorBodySchema,
  type DeleteResult,
  deleteResultSchema,
  type GetOrCreateResult,
  getOrCreateResultSchema,
  type RotateResult,
  rotateResultSchema,
  userGroupRoutes,
} from './contract';

export class ConsoleApiError extends Error {
  constructor(
    readonly code: ConsoleErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

export const CONSOLE_UNREACHABLE_MESSAGE =
  'The console could not be reached. Check your connection and retry.';

/**
 * Calls a console route handler with a JSON body and returns its answer parsed with `answerSchema`:
 * the browser never reads an answer it has not checked. A failure becomes a ConsoleApiError carrying
 * the console's message, field errors and retry delay.
 */
export async function callConsoleRoute<Answer>(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body: unknown,
  answerSchema: z.core.$ZodType<Answer>,
  signal?: AbortSignal,
): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      // A GET carries its question in the URL.
      ...(method === 'GET'
        ? { headers: { Accept: 'application/json' } }
        : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE);
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = consoleErrorBodySchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields, retryAfterSeconds } = parsed.data.error;
      throw new ConsoleApiError(code, message, fields, retryAfterSeconds);
    }
    throw new ConsoleApiError('internal', `The console answered ${response.status} without an explanation.`);
  }
  const answer = z.safeParse(answerSchema, payload);
  if (!answer.success) throw new ConsoleApiError('internal', 'The console answered in an unexpected shape.');
  return answer.data;
}

/** The user group calls of one environment. */
export function userGroupsApi(environment: Environment) {
  const routes = userGroupRoutes(environment);
  return {
    getOrCreate: (body: GetOrCreateRequest): Promise<GetOrCreateResult> =>
      callConsoleRoute('POST', routes.getOrCreate, body, getOrCreateResultSchema),
    rotate: (body: RotateRequest): Promise<RotateResult> =>
      callConsoleRoute('POST', routes.rotate, body, rotateResultSchema),
    deleteUserGroup: (body: DeleteRequest): Promise<DeleteResult> =>
      callConsoleRoute('POST', routes.delete, body, deleteResultSchema),
  };
}
