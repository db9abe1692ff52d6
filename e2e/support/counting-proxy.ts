/**
 * A loopback proxy in front of a real User Group Service that counts the requests it forwards, per
 * user_group_id: how a test proves that no row of a bulk job was sent twice. Runs in the test's
 * process; the console under test is pointed at it like at a vendor.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface CountingProxy {
  url: string;
  /** Requests forwarded, per user_group_id (an id-less body counts under ''). */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const counts = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const body = Buffer.concat(chunks);
      let id = '';
      try {
        id = String((JSON.parse(body.toString('utf8')) as { user_group_id?: unknown }).user_group_id ?? '');
      } catch {
        // Counted under '' like any request without an id.
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
      try {
        const answer = await request(`${target}${incoming.url}`, {
          method: incoming.method as 'GET',
          headers: {
            authorization: incoming.headers.authorization ?? '',
            'content-type': 'application/json',
          },
          body,
        });
        outgoing.writeHead(answer.statusCode, { 'content-type': 'application/json' });
        outgoing.end(Buffer.from(await answer.body.arrayBuffer()));
      } catch {
        outgoing.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections from the console would hold close() open.
        server.closeAllConnections();
      }),
  };
}
