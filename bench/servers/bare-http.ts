/**
 * The baseline: a bare node:http handler that reads and parses the same JSON body and answers a
 * JSON of the size the scenario's real answer has (x-response-bytes), nothing else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const size = Number(request.headers['x-response-bytes'] ?? 200);
    const answer = { success: 1, echo: Object.keys(body).length, pad: '' };
    answer.pad = 'x'.repeat(Math.max(0, size - JSON.stringify(answer).length));
    const text = JSON.stringify(answer);
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
