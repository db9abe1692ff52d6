/**
 * The console's node:http server around Next's request handler (lib/launcher/console-server.ts runs
 * it): the service's limits against slow, idle or too many clients (lib/node-http/limits.ts), the
 * socket's address on every request (lib/config/trusted-proxies.ts), and a lingering close for an
 * answer given before its request's body arrived (lib/node-http/lingering-close.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { PEER_ADDRESS_HEADER } from '../config/trusted-proxies';
import { createLimitedHttpServer, type HttpLimits } from '../node-http/limits';
import { lingerAfterAnswer } from '../node-http/lingering-close';

export type ConsoleRequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

/**
 * A path with a malformed percent-escape (`/customer/groups/%E0%A4%A`) names no page: Next's
 * proxy (the CSP nonce, proxy.ts) fails on it with a bare 500, so it is answered 404 here first.
 */
function decodablePath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0] ?? '/';
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify({ error: { code: 'not_found', message: 'No page has this address.' } }));
}

export function createConsoleHttpServer(handle: ConsoleRequestHandler, limits: HttpLimits): Server {
  return createLimitedHttpServer(limits, (request, response) => {
    // Replaces, never appends to, whatever the client sent under this name.
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    // A route may answer without reading the body (401, 403, 404): its client must still hear it.
    lingerAfterAnswer(request, response);
    if (!decodablePath(request.url)) return notFound(response);
    void handle(request, response);
  });
}
