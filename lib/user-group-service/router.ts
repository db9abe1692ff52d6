/**
 * The request pipeline. Checks run in a fixed, documented order, each answering with its own error:
 * path (404) → method (405) → auth (401) → rate limit (429) → content type (415) → size (413) →
 * JSON (400) → schema (400) → operation (404 / 200). Every answer carries X-Request-Id and is logged
 * as one line without secrets.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { type MetricsAccessPolicy, metricsAccess, refusalMessage } from '../metrics/access';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { lingerAfterAnswer } from '../node-http/lingering-close';
import type { Authenticator } from './authenticator';
import { internalError, ServiceError } from './errors';
import { operations, type UserGroupMethod } from './handlers';
import type { RateLimiter } from './rate-limiter';
import { assertJsonContentType, type BodyReader, parseJsonObject, startReadingBody } from './request-body';
import type { UserGroupStore } from './user-group-store';

export interface RouterDependencies {
  store: UserGroupStore;
  authenticator: Authenticator;
  rateLimiter: RateLimiter | null;
  logger: Logger;
  /** Readiness: resolves when the database answers. */
  checkDatabase: () => Promise<void>;
  /** Counts every answer; `/metrics` reads it to whom `metricsAccess` lets in. */
  metrics: ServiceMetrics;
  metricsAccess: MetricsAccessPolicy;
  openApiDocument: string;
  /** True once shutdown began: answers then ask the client to close the connection. */
  isClosing: () => boolean;
  /** What a request's duration is measured by. */
  clock: Clock;
}

/** One request as it goes through the pipeline: what the answer and the access log need. */
interface RequestState {
  requestId: string;
  keyId: string | undefined;
  /** Set once the body is being read; an answer before it fully arrived closes the connection. */
  bodyReader: BodyReader | undefined;
  closeConnection: boolean;
}

type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  state: RequestState,
) => Promise<void>;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const USER_GROUP_METHODS = new Set<string>(['GET', 'POST', 'DELETE']);

/** Every path the service answers; anything else is counted as `unmatched`. */
export const SERVICE_PATHS = ['/api/user', '/healthz', '/readyz', '/metrics', '/openapi.json'] as const;

export function createRequestListener(deps: RouterDependencies) {
  const routes = new Map<string, { methods: Set<string>; allow: string; handle: RouteHandler }>([
    ['/api/user', { methods: USER_GROUP_METHODS, allow: 'GET, POST, DELETE', handle: handleUserGroup }],
    ['/healthz', { methods: new Set(['GET']), allow: 'GET', handle: handleHealth }],
    ['/readyz', { methods: new Set(['GET']), allow: 'GET', handle: handleReady }],
    ['/metrics', { methods: new Set(['GET']), allow: 'GET', handle: handleMetrics }],
    ['/openapi.json', { methods: new Set(['GET']), allow: 'GET', handle: handleOpenApi }],
  ]);

  async function handleUserGroup(request: IncomingMessage, response: ServerResponse, state: RequestState) {
    // Read from the start (cheapest for Node's streams); errors still answer in the documented order.
    const reader = startReadingBody(request);
    state.bodyReader = reader;
    const apiKey = await deps.authenticator.authenticate(request.headers.authorization);
    state.keyId = apiKey.id;
    const retryAfter = (await deps.rateLimiter?.take(apiKey.id)) ?? 0;
    if (retryAfter > 0) {
      throw new ServiceError('rate_limited', 'too many requests for this API key; retry later', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    assertJsonContentType(request.headers['content-type']);
    const body = parseJsonObject(await reader.body);
    const operation = operations[request.method as UserGroupMethod];
    sendJson(response, state, 200, await operation(body, apiKey, deps.store));
  }

  /** Liveness: the process serves requests. No I/O, so a slow database does not get it restarted. */
  async function handleHealth(_request: IncomingMessage, response: ServerResponse, state: RequestState) {
    sendJson(response, state, 200, { success: 1, status: 'ok' });
  }

  /** Readiness: the database answers `select 1`; 503 while it does not. */
  async function handleReady(_request: IncomingMessage, response: ServerResponse, state: RequestState) {
    try {
      await deps.checkDatabase();
    } catch (error) {
      deps.logger.error({ err: error, request_id: state.requestId }, 'readiness check failed');
      sendJson(response, state, 503, {
        success: 0,
        error: { code: 'internal', message: 'database unavailable' },
      });
      return;
    }
    sendJson(response, state, 200, { success: 1, status: 'ready' });
  }

  /** Loopback, or `Authorization: Bearer <METRICS_TOKEN>` (lib/metrics/access.ts); else 401. */
  async function handleMetrics(request: IncomingMessage, response: ServerResponse, state: RequestState) {
    const verdict = metricsAccess(request.socket.remoteAddress, request.headers, deps.metricsAccess);
    if (!verdict.allowed) {
      throw new ServiceError('unauthorized', refusalMessage(verdict.reason), {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    const text = await deps.metrics.text();
    response.writeHead(200, {
      'Content-Type': deps.metrics.contentType,
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
      'X-Request-Id': state.requestId,
    });
    response.end(text);
  }

  async function handleOpenApi(_request: IncomingMessage, response: ServerResponse, state: RequestState) {
    response.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(deps.openApiDocument),
      'X-Request-Id': state.requestId,
    });
    response.end(deps.openApiDocument);
  }

  return async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = deps.clock.monotonic();
    const path = pathOf(request.url);
    const state: RequestState = {
      requestId: pickRequestId(request.headers['x-request-id']),
      keyId: undefined,
      bodyReader: undefined,
      closeConnection: deps.isClosing(),
    };

    try {
      const route = routes.get(path);
      if (!route) throw new ServiceError('not_found', `no such path: ${path.slice(0, 200)}`);
      if (!route.methods.has(request.method ?? '')) {
        throw new ServiceError('method_not_allowed', `${path} allows ${route.allow}`, {
          headers: { Allow: route.allow },
        });
      }
      await route.handle(request, response, state);
    } catch (error) {
      const failure = error instanceof ServiceError ? error : internalError();
      if (!(error instanceof ServiceError)) {
        deps.logger.error({ err: error, request_id: state.requestId, key_id: state.keyId }, 'request failed');
      }
      if (failure.closeConnection || (state.bodyReader && !state.bodyReader.progress.complete)) {
        state.closeConnection = true;
      }
      // Answered before the body arrived (413, 401…): the client hears the answer only if the rest
      // of its body is read before the connection closes.
      if (!request.complete) lingerAfterAnswer(request, response);
      sendJson(response, state, failure.status, failure.toBody(), failure.headers);
    } finally {
      const status = response.statusCode;
      deps.metrics.request(request.method, path, status, (deps.clock.monotonic() - startedAt) / 1000);
      if (path === '/api/user' && status === 401) deps.metrics.apiKeyRefusal();
      if (path === '/api/user' && status === 429) deps.metrics.rateLimitRefusal();
      deps.logger.info(
        {
          request_id: state.requestId,
          method: request.method,
          path: path.slice(0, 200),
          status: response.statusCode,
          duration_ms: Math.round((deps.clock.monotonic() - startedAt) * 100) / 100,
          key_id: state.keyId,
        },
        'request',
      );
    }
  };
}

/** Writes a JSON answer with every header in one writeHead (Node's fastest path). */
function sendJson(
  response: ServerResponse,
  state: RequestState,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
) {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  const allHeaders: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': state.requestId,
  };
  if (headers) Object.assign(allHeaders, headers);
  if (state.closeConnection) allHeaders.Connection = 'close';
  response.writeHead(status, allHeaders);
  response.end(text);
}

/** Honours a sane incoming X-Request-Id (letters, digits, `._:-`, ≤ 128), else makes one. */
function pickRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
