/**
 * The console's HTTP server: Next's production request handler behind node:http, so that every
 * request carries the address of the socket it came from (lib/config/trusted-proxies.ts). `next start`
 * passes a client's own X-Forwarded-For through unchanged, which let any client choose the address
 * the sign-in limiter counts against. The server itself is console-http-server.ts. Run by the launcher
 * as its child:
 *
 *   node --import tsx lib/launcher/console-server.ts --port 3000 --hostname 127.0.0.1
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import next from 'next';
import { parseConfig } from '../config';
import { createRoutePatternMatcher, readBuiltRoutePatterns } from '../metrics/route-pattern';
import { createConsoleHttpServer } from './console-http-server';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, hostname: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
const hostname = values.hostname;
// Limits from CONSOLE_HEADERS_TIMEOUT_MS and the like (lib/config), read before Next starts; and who
// may read /metrics (METRICS_TOKEN, CONSOLE_TRUSTED_PROXIES, the console's own host name).
const { http: limits, metricsToken, trustedProxies, consoleUrl } = parseConfig(process.env);

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

// Requests are counted under the build's route patterns, never their paths (which carry ids).
const routeOf = createRoutePatternMatcher(readBuiltRoutePatterns(path.join(process.cwd(), '.next')));
const server = createConsoleHttpServer(handle, limits, {
  access: { token: metricsToken, trustedProxies, ownHosts: [consoleUrl.hostname] },
  routeOf,
});
server.listen(port, hostname, () => {
  process.stdout.write(`console server listening on http://${hostname}:${port}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
