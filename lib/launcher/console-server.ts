/**
 * The console's server alone (serve-console.ts: Next's handler behind node:http), for a deployment
 * that runs the User Group Service elsewhere and migrates with `npm run migrate` first. `npm start`
 * does not use it: it serves the console in its own process (start.ts).
 *
 *   node dist/launcher/console-server.js --port 3000 --hostname 127.0.0.1   (after npm run build)
 */
import { parseArgs } from 'node:util';
import { parseConfig } from '../config';
import { keepServingWithoutLogPipe } from './closed-log-pipe';
import { serveConsole } from './serve-console';

keepServingWithoutLogPipe();

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, hostname: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
const hostname = values.hostname;
// Limits from CONSOLE_HEADERS_TIMEOUT_MS and the like (lib/config), read before Next starts; and who
// may read /metrics (METRICS_TOKEN, CONSOLE_TRUSTED_PROXIES, the console's own host name).
const { http: limits, metricsToken, trustedProxies, consoleUrl } = parseConfig(process.env);

const consoleServer = await serveConsole({
  port,
  hostname,
  limits,
  metricsAccess: { token: metricsToken, trustedProxies, ownHosts: [consoleUrl.hostname] },
});
process.stdout.write(`console server listening on http://${hostname}:${port}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void consoleServer.close().then(() => process.exit(0));
  });
}
