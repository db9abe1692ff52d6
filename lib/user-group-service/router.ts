/**
 * The request pipeline. Checks run in a fixed, documented order, each answering with its own error:
 * path (404) → method (405) → auth (401) → rate limit (429) → content type (415) → size (413) →
 * JSON (400) → schema (400) → operation (404 / 200). Every answer carries X-Request-Id and is logged
 * as one line without secrets.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Authenticator } from './authenticator';
import { internalError, ServiceError } from './errors';
import { operations, type UserGroupMethod } from './handlers';
import type { RateLimiter } from './rate-limiter';
import { assertJsonContentType, parseJsonObject, readBody } from './request-body';
import type { UserGroupStore } from './user-group-store';

export interface RouterDependencies {
  store: UserGroupStore;
  authenticator: Authenticator;
  rateLimiter: RateLimiter | null;
  logger: Logger;
  checkHealth: () => Promise<void>;
  openApiDocument: string;
  /** True once shutdown began: answers then ask the client to close the connection. */
  isClosing: () => boolean;
}

/** What one request reports to the access log; filled in as the pipeline gets further. */
interface RequestLog {
  keyId: string | undefined;
}

type RouteHandler = (request: IncomingMessage, response: ServerResponse, log: RequestLog) => Promise<void>;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const USER_GROUP_METHODS = new Set<string>(['GET', 'POST', 'DELETE']);

export function createRequestListener(deps: RouterDependencies) {
  const routes = new Map<string, { methods: Set<string>; allow: string; handle: RouteHandler }>([
    ['/api/user', { methods: USER_GROUP_METHODS, allow: 'GET, POST, DELETE', handle: handleUserGroup }],
    ['/healthz', { methods: new Set(['GET']), allow: 'GET', handle: handleHealth }],
    ['/openapi.json', { methods: new Set(['GET']), allow: 'GET', handle: handleOpenApi }],
  ]);

  async function handleUserGroup(request: IncomingMessage, response: ServerResponse, log: RequestLog) {
    const apiKey = await deps.authenticator.authenticate(request.headers.authorization);
    log.keyId = apiKey.id;
    const retryAfter = deps.rateLimiter?.take(apiKey.id) ?? 0;
    if (retryAfter > 0) {
      throw new ServiceError('rate_limited', 'too many requests for this API key; retry later', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    assertJsonContentType(request.headers['content-type']);
    const body = parseJsonObject(await readBody(request));
    const operation = operations[request.method as UserGroupMethod];
    sendJson(response, 200, await operation(body, apiKey, deps.store));
  }

  async function handleHealth(_request: IncomingMessage, response: ServerResponse) {
    try {
      await deps.checkHealth();
    } catch (error) {
      deps.logger.error({ err: error }, 'health check failed');
      sendJson(response, 503, { success: 0, error: { code: 'internal', message: 'database unavailable' } });
      return;
    }
    sendJson(response, 200, { success: 1, status: 'ok' });
  }

  async function handleOpenApi(_request: IncomingMessage, response: ServerResponse) {
    response.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(deps.openApiDocument),
    });
    response.end(deps.openApiDocument);
  }

  return async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const requestId = pickRequestId(request.headers['x-request-id']);
    const path = pathOf(request.url);
    const log: RequestLog = { keyId: undefined };
    response.setHeader('X-Request-Id', requestId);
    if (deps.isClosing()) response.setHeader('Connection', 'close');

    try {
      const route = routes.get(path);
      if (!route) throw new ServiceError('not_found', `no such path: ${path.slice(0, 200)}`);
      if (!route.methods.has(request.method ?? '')) {
        throw new ServiceError('method_not_allowed', `${path} allows ${route.allow}`, {
          headers: { Allow: route.allow },
        });
      }
      await route.handle(request, response, log);
    } catch (error) {
      const failure = error instanceof ServiceError ? error : internalError();
      if (!(error instanceof ServiceError)) {
        deps.logger.error({ err: error, request_id: requestId, key_id: log.keyId }, 'request failed');
      }
      sendError(response, failure);
    } finally {
      deps.logger.info(
        {
          request_id: requestId,
          method: request.method,
          path: path.slice(0, 200),
          status: response.statusCode,
          duration_ms: Math.round((performance.now() - startedAt) * 100) / 100,
          key_id: log.keyId,
        },
        'request',
      );
    }
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(text);
}

function sendError(response: ServerResponse, error: ServiceError) {
  const headers = { ...error.headers };
  if (error.closeConnection) headers.Connection = 'close';
  sendJson(response, error.status, error.toBody(), headers);
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
