/**
 * The console's node:http server around Next's request handler (lib/launcher/console-server.ts runs
 * it): the service's limits against slow, idle or too many clients (lib/node-http/limits.ts), the
 * socket's address on every request (lib/config/trusted-proxies.ts), a lingering close for an
 * answer given before its request's body arrived (lib/node-http/lingering-close.ts), and metrics.
 *
 * Metrics live here rather than in the route wrapper (lib/server/route.ts) because this is the one
 * place that sees every request: pages, sign-in (/api/auth), health, Next's assets, 404s and the
 * answers this server gives itself, with the time Next's routing and rendering take. The wrapper
 * sees only the routes it wraps. `/metrics` is answered here too, before Next: the socket's address
 * is at hand (no header to trust), and a console started without this server (plain `next start`)
 * has no `/metrics` at all rather than one whose loopback check a client could fool.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { PEER_ADDRESS_HEADER } from '../config/trusted-proxies';
import { type MetricsAccessPolicy, metricsAccess, refusalMessage } from '../metrics/access';
import { consoleMetrics, recordConsoleRequest } from '../metrics/console-metrics';
import type { RoutePatternOf } from '../metrics/route-pattern';
import { createLimitedHttpServer, type HttpLimits } from '../node-http/limits';
import { lingerAfterAnswer } from '../node-http/lingering-close';

export type ConsoleRequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

const pathOf = (url: string | undefined) => (url ?? '/').split('?')[0] ?? '/';

/**
 * A path with a malformed percent-escape (`/customer/groups/%E0%A4%A`) names no page: Next's
 * proxy (the CSP nonce, proxy.ts) fails on it with a bare 500, so it is answered 404 here first.
 */
function decodablePath(url: string | undefined): boolean {
  try {
    decodeURIComponent(pathOf(url));
    return true;
  } catch {
    return false;
  }
}

/**
 * A browser asking for a page reads a page (the console's 404 says the same in its layout); an API
 * client reads the documented error shape. No script, no style: nothing the CSP would have to allow.
 */
function notFound(request: IncomingMessage, response: ServerResponse): void {
  const wantsPage =
    !pathOf(request.url).startsWith('/api/') && /text\/html/.test(request.headers.accept ?? '');
  if (wantsPage) {
    response.writeHead(404, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
    });
    response.end(NOT_FOUND_PAGE);
    return;
  }
  response.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify({ error: { code: 'not_found', message: 'No page has this address.' } }));
}

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · User Group Console</title></head>
<body><main><h1>No page has this address</h1>
<p>The address is not a valid link (part of it is broken). Check where it came from.</p>
<p><a href="/">Back to the console</a></p></main></body></html>
`;

const METRICS_PATH = '/metrics';

export interface ConsoleMetricsOptions {
  /** Who may read /metrics (METRICS_TOKEN, CONSOLE_TRUSTED_PROXIES, the console's host). */
  access: MetricsAccessPolicy;
  /** The route pattern a request is counted under (lib/metrics/route-pattern.ts). */
  routeOf: RoutePatternOf;
  /** What a request's duration is measured on (the process's monotonic clock; a test's own). */
  clock: Pick<Clock, 'monotonic'>;
}

async function answerMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  access: MetricsAccessPolicy,
) {
  const verdict = metricsAccess(request.socket.remoteAddress, request.headers, access);
  if (!verdict.allowed) {
    const requestId = randomUUID();
    const code = verdict.status === 401 ? 'unauthenticated' : 'forbidden';
    response.writeHead(verdict.status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-request-id': requestId,
      ...(verdict.status === 401 ? { 'www-authenticate': 'Bearer realm="metrics"' } : {}),
    });
    response.end(JSON.stringify({ error: { code, message: refusalMessage(verdict.reason), requestId } }));
    return;
  }
  const { registry } = consoleMetrics();
  const text = await registry.metrics();
  response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  response.end(request.method === 'HEAD' ? undefined : text);
}

export function createConsoleHttpServer(
  handle: ConsoleRequestHandler,
  limits: HttpLimits,
  metrics?: ConsoleMetricsOptions,
): Server {
  return createLimitedHttpServer(limits, (request, response) => {
    // Replaces, never appends to, whatever the client sent under this name.
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    // A route may answer without reading the body (401, 403, 404): its client must still hear it.
    lingerAfterAnswer(request, response);
    if (metrics) {
      const started = metrics.clock.monotonic();
      const path = pathOf(request.url);
      const route = path === METRICS_PATH ? METRICS_PATH : metrics.routeOf(request.url ?? '/');
      response.once('close', () => {
        recordConsoleRequest(
          request.method,
          route,
          response.statusCode,
          (metrics.clock.monotonic() - started) / 1000,
        );
      });
      if (path === METRICS_PATH && (request.method === 'GET' || request.method === 'HEAD')) {
        void answerMetrics(request, response, metrics.access).catch(() => {
          if (!response.headersSent) response.writeHead(500);
          response.end();
        });
        return;
      }
    }
    if (!decodablePath(request.url)) return notFound(request, response);
    void handle(request, response);
  });
}
