/**
 * The console's HTTP server: Next's production request handler behind node:http
 * (console-http-server.ts), so that every request carries the address of the socket it came from
 * (lib/config/trusted-proxies.ts). `next start` passes a client's own X-Forwarded-For through
 * unchanged, which let any client choose the address the sign-in limiter counts against.
 *
 * `npm start` runs it inside the launcher's own process, beside the embedded service
 * (lib/launcher/start.ts); console-server.ts runs it alone, for a deployment whose service is
 * elsewhere. The caller sets process.env first: Next and the console's routes read it.
 */
import type { Server } from 'node:http';
import path from 'node:path';
import { realClock } from '../clock';
import type { MetricsAccessPolicy } from '../metrics/access';
import { createRoutePatternMatcher, readBuiltRoutePatterns } from '../metrics/route-pattern';
import type { HttpLimits } from '../node-http/limits';
import { createConsoleHttpServer } from './console-http-server';

export interface ConsoleServerOptions {
  port: number;
  hostname: string;
  limits: HttpLimits;
  /** Who may read /metrics (METRICS_TOKEN, CONSOLE_TRUSTED_PROXIES, the console's own host name). */
  metricsAccess: MetricsAccessPolicy;
}

export interface RunningConsoleServer {
  server: Server;
  /** Stops accepting, lets requests in flight finish, and gives up on them after 5 s. */
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 5_000;

export async function serveConsole({
  port,
  hostname,
  limits,
  metricsAccess,
}: ConsoleServerOptions): Promise<RunningConsoleServer> {
  // React and Next choose their production builds from NODE_ENV when first loaded: set before
  // `next` is imported, hence the dynamic import.
  Object.assign(process.env, { NODE_ENV: 'production' });
  const { default: next } = await import('next');
  const app = next({ dev: false, hostname, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Requests are counted under the build's route patterns, never their paths (which carry ids).
  const routeOf = createRoutePatternMatcher(readBuiltRoutePatterns(path.join(process.cwd(), '.next')));
  const server = createConsoleHttpServer(handle, limits, {
    access: metricsAccess,
    routeOf,
    clock: realClock,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, CLOSE_GRACE_MS);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
