/**
 * The browser's side of the console contract: one typed call per route handler. Used by the
 * TanStack Query mutations; every failure becomes a ConsoleApiError with a message a person can act on.
 */
import type { z } from 'zod';
import type { DeleteRequest, GetOrCreateRequest, RotateRequest } from '@/lib/user-group-api/contract';
import {
  type ConsoleErrorCode,
  consoleErrorBodySchema,
  consoleRoutes,
  type DeleteResult,
  deleteResultSchema,
  type GetOrCreateResult,
  getOrCreateResultSchema,
  type RotateResult,
  rotateResultSchema,
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

/**
 * Sends JSON to a console route handler and returns the answer's payload; a failure becomes a
 * ConsoleApiError carrying the console's message, field errors and retry delay.
 */
export async function sendJson(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ConsoleApiError(
      'internal',
      'The console could not be reached. Check your connection and retry.',
    );
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
  return payload;
}

async function postJson<T>(path: string, body: unknown, resultSchema: z.ZodType<T>): Promise<T> {
  const parsed = resultSchema.safeParse(await sendJson('POST', path, body));
  if (!parsed.success) throw new ConsoleApiError('internal', 'The console answered in an unexpected shape.');
  return parsed.data;
}

export const consoleApi = {
  getOrCreate: (body: GetOrCreateRequest): Promise<GetOrCreateResult> =>
    postJson(consoleRoutes.getOrCreate, body, getOrCreateResultSchema),
  rotate: (body: RotateRequest): Promise<RotateResult> =>
    postJson(consoleRoutes.rotate, body, rotateResultSchema),
  deleteUserGroup: (body: DeleteRequest): Promise<DeleteResult> =>
    postJson(consoleRoutes.delete, body, deleteResultSchema),
};
