/**
 * A User Group Service that fails on purpose, on loopback, for the e2e test of every failure a
 * person can meet. The user_group_id chooses the failure; any other id gets a well-formed group.
 *
 *   node --import tsx e2e/support/faulty-upstream.ts <port>
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4313);

const failures: Record<
  string,
  { status: number; body: string; headers?: Record<string, string>; delayMs?: number }
> = {
  'refused-key': {
    status: 401,
    body: JSON.stringify({ success: 0, error: { code: 'unauthorized', message: 'Invalid API key' } }),
  },
  'rate-limited': {
    status: 429,
    body: JSON.stringify({ success: 0, error: { code: 'rate_limited', message: 'Too many requests' } }),
    headers: { 'retry-after': '7' },
  },
  'server-error': {
    status: 503,
    body: JSON.stringify({ success: 0, error: { code: 'internal', message: 'Database is down' } }),
  },
  malformed: { status: 200, body: '<html>Welcome to nginx</html>' },
  slow: { status: 200, body: '{}', delayMs: 5_000 },
};

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let id = '';
    try {
      id = String(
        (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { user_group_id?: unknown }).user_group_id ??
          '',
      );
    } catch {
      // Not JSON: answered as a healthy service would.
    }
    const failure = failures[id];
    const answer = () => {
      if (failure) {
        response.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        response.end(failure.body);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          success: 1,
          new_user_group: true,
          user_group: { team_id: 1, token: 'f'.repeat(64), name: id, provided_id: id, properties: null },
        }),
      );
    };
    if (failure?.delayMs) setTimeout(answer, failure.delayMs);
    else answer();
  });
}).listen(port, '127.0.0.1', () => process.stdout.write(`faulty upstream on ${port}\n`));
