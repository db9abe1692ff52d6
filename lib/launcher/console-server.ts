/**
 * The console's HTTP server: Next's production request handler behind node:http, so that every
 * request carries the address of the socket it came from (lib/config/trusted-proxies.ts). `next start`
 * passes a client's own X-Forwarded-For through unchanged, which let any client choose the address
 * the sign-in limiter counts against. Run by the launcher as its child:
 *
 *   node --import tsx lib/launcher/console-server.ts --port 3000 --hostname 127.0.0.1
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import next from 'next';
import { PEER_ADDRESS_HEADER } from '../config/trusted-proxies';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, hostname: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
const hostname = values.hostname;

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  // Replaces, never appends to, whatever the client sent under this name.
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
  void handle(request, response);
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
