/**
 * The console's node:http server without Next: its limits reach the server and cut off a request
 * head that trickles in, it writes the socket's address on every request, and a client sending a
 * large body hears the answer given before the body arrived, whether the route read part of the
 * body (413 from readJson, as Next hands it a web Request over the Node request) or none of it.
 */
import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONSOLE_HTTP_LIMITS, parseConfig } from '../config';
import { PEER_ADDRESS_HEADER } from '../config/trusted-proxies';
import type { HttpLimits } from '../node-http/limits';
import { readJson } from '../server/request-body';
import { type BodyOptions, sendWithNodeHttp, sendWithUndici } from '../testing/oversized-body';
import { openRawConnection, type RawConnection } from '../user-group-service/test-support';
import { type ConsoleRequestHandler, createConsoleHttpServer } from './console-http-server';

const servers: Server[] = [];
const connections: RawConnection[] = [];

afterEach(() => {
  for (const connection of connections.splice(0)) connection.socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function start(handle: ConsoleRequestHandler, limits: HttpLimits = DEFAULT_CONSOLE_HTTP_LIMITS) {
  const server = createConsoleHttpServer(handle, limits);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const answer = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** What Next does for a route handler: a web Request whose body is the Node request. */
const webRequest = (request: IncomingMessage) =>
  new Request(`http://console.test${request.url}`, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request as unknown as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);

/** A route that reads its JSON body (1 MiB at most), as every console route does. */
const readingRoute: ConsoleRequestHandler = async (request, response) => {
  try {
    answer(response, 200, await readJson(webRequest(request)));
  } catch (error) {
    answer(response, 413, { error: { code: (error as { code?: string }).code } });
  }
};

/** A route that refuses before reading anything, as one does without a session. */
const refusingRoute: ConsoleRequestHandler = (_request, response) => {
  answer(response, 401, { error: { code: 'unauthenticated' } });
};

describe('createConsoleHttpServer', () => {
  it('sets the limits from the configuration on the server', async () => {
    const { server } = await start(refusingRoute, parseConfig({}).http);
    expect(server).toMatchObject({
      headersTimeout: 10_000,
      requestTimeout: 120_000,
      keepAliveTimeout: 5_000,
      maxConnections: 1024,
    });
    const configured = parseConfig({
      CONSOLE_HEADERS_TIMEOUT_MS: '2000',
      CONSOLE_REQUEST_TIMEOUT_MS: '4000',
      CONSOLE_KEEP_ALIVE_TIMEOUT_MS: '1000',
      CONSOLE_MAX_CONNECTIONS: '7',
    });
    const { server: limited } = await start(refusingRoute, configured.http);
    expect(limited).toMatchObject({
      headersTimeout: 2_000,
      requestTimeout: 4_000,
      keepAliveTimeout: 1_000,
      maxConnections: 7,
    });
  });

  it('answers 408 and closes a connection whose request head is not complete within headersTimeout', async () => {
    const { url } = await start(refusingRoute, {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 8,
    });
    const connection = await openRawConnection(url);
    connections.push(connection);
    const started = Date.now();
    connection.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => connection.socket.write('X-Slow: 1\r\n'), 50);
    try {
      const closed = await connection.closedWithin(3_000);
      expect(closed, 'the connection is still open after 3 s').not.toBeNull();
      expect(closed).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      clearInterval(trickle);
    }
  });

  it('answers 404 for a path with a malformed percent-escape, without calling Next', async () => {
    const seen: string[] = [];
    const { url } = await start((request, response) => {
      seen.push(request.url ?? '');
      answer(response, 200, {});
    });
    for (const path of ['/customer/groups/%E0%A4%A', '/%zz/bulk', '/acme%E0?q=1']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    // A browser reads a page with a way back, not JSON; an API path stays JSON whoever asks.
    const page = await fetch(`${url}/customer/groups/%E0%A4%A`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<a href="/">Back to the console</a>');
    const api = await fetch(`${url}/api/user-groups/%zz`, { headers: { accept: 'text/html' } });
    expect(api.headers.get('content-type')).toBe('application/json');
    // A well-formed escape, and a malformed one in the query alone, reach the console.
    expect((await fetch(`${url}/customer/groups/a%2Fb?q=%E0`)).status).toBe(200);
    expect(seen).toEqual(['/customer/groups/a%2Fb?q=%E0']);
  });

  it("replaces a client's own peer address header with the socket's address", async () => {
    let seen: string | string[] | undefined;
    const { url } = await start((request, response) => {
      seen = request.headers[PEER_ADDRESS_HEADER];
      answer(response, 200, {});
    });
    await sendWithUndici(url, {
      method: 'POST',
      body: Buffer.from('{}'),
      headers: { [PEER_ADDRESS_HEADER]: '6.6.6.6' },
    });
    expect(seen).toBe('127.0.0.1');
  });

  const fiveMegabytes = Buffer.alloc(5 * 1024 * 1024, 0x20);
  const sends: Array<
    [string, (url: string, options: BodyOptions) => ReturnType<typeof sendWithUndici>, Partial<BodyOptions>]
  > = [
    ['node:http, Connection: close', sendWithNodeHttp, {}],
    ['node:http, keep-alive', sendWithNodeHttp, { keepAlive: true }],
    ['node:http, chunked', sendWithNodeHttp, { chunked: true }],
    ['undici', sendWithUndici, {}],
  ];
  const routes: Array<[string, ConsoleRequestHandler, number]> = [
    ['a route that reads 1 MiB and answers 413', readingRoute, 413],
    ['a route that answers 401 before reading', refusingRoute, 401],
  ];

  for (const [routeName, route, status] of routes) {
    it.each(sends)(`a 5 MB body sent to ${routeName}: %s reads the answer`, async (_, send, extra) => {
      const { url } = await start(route);
      for (let attempt = 0; attempt < 3; attempt++) {
        const outcome = await send(`${url}/api/x`, {
          method: 'POST',
          body: fiveMegabytes,
          headers: { 'content-type': 'application/json' },
          ...extra,
        });
        expect(outcome).toMatchObject({ status, error: null });
      }
    });
  }
});
