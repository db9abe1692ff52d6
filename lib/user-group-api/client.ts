/**
 * A typed client for any server that speaks the User Group Service interface: the built-in service
 * or a vendor's. undici `request` because the interface sends a JSON body on GET, which `fetch`
 * refuses. Every answer is parsed with the contract before use; every failure becomes an
 * UpstreamError whose kind says what a person can do about it. The API key is handed in by the
 * caller and never appears in an error message.
 */

import { Agent, type Dispatcher, request, errors as undiciErrors } from 'undici';
import * as z from 'zod/mini';
import type { Clock } from '../clock';
import { crossCopyBrand } from '../process-wide';
import { redactUrlCredentials } from '../redact-url';
import {
  type DeleteRequest,
  type DeleteResponse,
  deleteResponseSchema,
  errorResponseSchema,
  type GetOrCreateRequest,
  type GetOrCreateResponse,
  getOrCreateResponseSchema,
  type RotateRequest,
  type RotateResponse,
  rotateResponseSchema,
} from './contract';

export type UpstreamErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'rate_limited'
  | 'unreachable'
  | 'timeout'
  | 'malformed'
  | 'failed';

const upstreamBrand = crossCopyBrand('upstream-error');

export class UpstreamError extends Error {
  /** Thrown by the process's one client, caught by any copy of this module (lib/process-wide.ts). */
  readonly [upstreamBrand.brand] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return upstreamBrand.carries(value);
  }

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly details: {
      status?: number;
      code?: string;
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
      requestId?: string;
    } = {},
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface UserGroupApiOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** Connection pool; one per process is plenty. */
  dispatcher?: Dispatcher;
  /** Told of every call once it ends: its operation, `success` or the failure's kind, and its duration. */
  observe?: (call: UpstreamCall) => void;
  /** What a call's duration and a Retry-After date are read against: the caller's. */
  clock: Clock;
}

type UpstreamOperation = 'get-or-create' | 'rotate' | 'delete';

interface UpstreamCall {
  operation: UpstreamOperation;
  outcome: 'success' | UpstreamErrorKind;
  seconds: number;
}

export interface UserGroupApi {
  getOrCreate(body: GetOrCreateRequest, requestId?: string): Promise<GetOrCreateResponse>;
  rotate(body: RotateRequest, requestId?: string): Promise<RotateResponse>;
  deleteUserGroup(body: DeleteRequest, requestId?: string): Promise<DeleteResponse>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function createUserGroupApi(options: UserGroupApiOptions): UserGroupApi {
  const clock = options.clock;
  const endpoint = new URL('/api/user', options.baseUrl).toString();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 64 });

  const operationOf = { GET: 'get-or-create', POST: 'rotate', DELETE: 'delete' } as const;

  /** The call, and what it ended as for `observe`. */
  async function observed<T>(
    method: 'GET' | 'POST' | 'DELETE',
    body: unknown,
    schema: z.core.$ZodType<T>,
    requestId?: string,
  ): Promise<T> {
    if (!options.observe) return call(method, body, schema, requestId);
    const started = clock.monotonic();
    let outcome: UpstreamCall['outcome'] = 'success';
    try {
      return await call(method, body, schema, requestId);
    } catch (error) {
      outcome = error instanceof UpstreamError ? error.kind : 'failed';
      throw error;
    } finally {
      options.observe({
        operation: operationOf[method],
        outcome,
        seconds: (clock.monotonic() - started) / 1000,
      });
    }
  }

  async function call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    body: unknown,
    schema: z.core.$ZodType<T>,
    requestId?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Token ${options.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (requestId) headers['x-request-id'] = requestId;

    let response: Dispatcher.ResponseData;
    try {
      response = await request(endpoint, {
        method,
        headers,
        body: JSON.stringify(body),
        dispatcher,
        // undici closes the connection after a GET or DELETE that carries a body unless told
        // otherwise; the interface defines those bodies, so keep the connection alive.
        reset: false,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw connectionError(error, endpoint, timeoutMs);
    }

    let payload: unknown;
    try {
      payload = await response.body.json();
    } catch (error) {
      if (isTimeout(error)) throw connectionError(error, endpoint, timeoutMs);
      payload = undefined;
    }
    const upstreamRequestId = headerValue(response.headers['x-request-id']);

    if (response.statusCode >= 200 && response.statusCode < 300) {
      const parsed = z.safeParse(schema, payload);
      if (parsed.success) return parsed.data;
      const failure = errorResponseSchema.safeParse(payload);
      if (failure.success) throw failureError(response.statusCode, failure.data, upstreamRequestId);
      throw new UpstreamError(
        'malformed',
        `The User Group Service at ${redactUrlCredentials(endpoint)} answered in an unexpected shape.`,
        {
          status: response.statusCode,
          requestId: upstreamRequestId,
        },
      );
    }

    const failure = errorResponseSchema.safeParse(payload);
    const retryAfterSeconds = parseRetryAfter(headerValue(response.headers['retry-after']), clock.now());
    throw failureError(
      response.statusCode,
      failure.success ? failure.data : { success: 0 },
      upstreamRequestId,
      retryAfterSeconds,
    );
  }

  return {
    getOrCreate: (body, requestId) => observed('GET', body, getOrCreateResponseSchema, requestId),
    rotate: (body, requestId) => observed('POST', body, rotateResponseSchema, requestId),
    deleteUserGroup: (body, requestId) => observed('DELETE', body, deleteResponseSchema, requestId),
  };
}

function failureError(
  status: number,
  failure: z.infer<typeof errorResponseSchema>,
  requestId?: string,
  retryAfterSeconds?: number,
): UpstreamError {
  const { code, message, fields } = failure.error ?? {};
  const details = { status, code, fields, retryAfterSeconds, requestId };
  const upstreamMessage = message ?? `The User Group Service answered ${status}.`;
  if (status === 401 || status === 403 || code === 'unauthorized') {
    return new UpstreamError('unauthorized', upstreamMessage, details);
  }
  if (status === 404 || code === 'not_found') return new UpstreamError('not_found', upstreamMessage, details);
  if (status === 429 || code === 'rate_limited') {
    return new UpstreamError('rate_limited', upstreamMessage, details);
  }
  if (status === 400 || status === 422 || code === 'invalid_request') {
    return new UpstreamError('invalid_request', upstreamMessage, details);
  }
  return new UpstreamError('failed', upstreamMessage, details);
}

function connectionError(error: unknown, url: string, timeoutMs: number): UpstreamError {
  // The message reaches the browser and the logs: a `user:password@` in the URL must not.
  const endpoint = redactUrlCredentials(url);
  if (isTimeout(error)) {
    return new UpstreamError(
      'timeout',
      `The User Group Service at ${endpoint} did not answer within ${timeoutMs} ms.`,
    );
  }
  return new UpstreamError('unreachable', `The User Group Service at ${endpoint} could not be reached.`);
}

function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'TimeoutError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
