/**
 * lingerAfterAnswer on a bare node:http server that answers without reading the body: the client
 * hears the answer, the rest of the body is dropped within its bounds, and a kept-alive connection
 * serves the next request once the body is through.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect as connectSocket, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWithNodeHttp } from '../testing/oversized-body';
import { type LingerBounds, lingerAfterAnswer } from './lingering-close';

const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** Answers 413 at once, closing or not; tells when the server closed each connection. */
async function startServer(bounds: LingerBounds | null, closeConnection = true) {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    if (bounds) lingerAfterAnswer(request, response, bounds);
    response.writeHead(413, {
      'content-length': 2,
      ...(closeConnection ? { connection: 'close' } : {}),
    });
    response.end('no');
  });
  servers.push(server);
  let isClosed = false;
  const firstClosed = new Promise<void>((resolve) => {
    server.once('connection', (socket) =>
      socket.once('close', () => {
        isClosed = true;
        resolve();
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** Resolves once the server closed its first connection (the test's timeout bounds the wait). */
    closed: () => firstClosed,
    isClosed: () => isClosed,
  };
}

/** A raw connection that keeps sending after the server's FIN, as a client busy writing its body does. */
async function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connectSocket({ host: hostname, port: Number(port), allowHalfOpen: true });
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {}); // a reset is an outcome the tests read
  await once(socket, 'connect');
  /** Resolves once what the server sent matches: on its data, no polling. */
  const until = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(received)) return;
        socket.off('data', check);
        resolve();
      };
      socket.on('data', check);
      check();
    });
  return { socket, received: () => received, until };
}

/** Resolves once the socket drained or closed (once() would reject on the reset's error). */
const writableAgain = (socket: Socket) =>
  new Promise<void>((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });

const head = (length: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;

describe('lingerAfterAnswer', () => {
  it('lets a client sending 5 MB read the answer; without it, the client reports an error', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 0x61);
    const lingering = await startServer({ maxBytes: 8 * 1024 * 1024, maxMs: 5_000 });
    expect(await sendWithNodeHttp(lingering.url, { method: 'POST', body })).toEqual({
      status: 413,
      text: 'no',
      error: null,
    });
    const abrupt = await startServer(null);
    expect((await sendWithNodeHttp(abrupt.url, { method: 'POST', body })).error).toMatch(/EPIPE|ECONNRESET/);
  });

  it('closes the connection once maxBytes were dropped, without reading the rest', async () => {
    const server = await startServer({ maxBytes: 256 * 1024, maxMs: 10_000 });
    const connection = await connect(server.url);
    const total = 64 * 1024 * 1024;
    connection.socket.write(head(total));
    // Write until the server closed: a server reading it all would take in 64 MiB.
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let sent = 0; sent < total && !connection.socket.destroyed; sent += chunk.length) {
      if (!connection.socket.write(chunk)) await writableAgain(connection.socket);
    }
    await server.closed();
    expect(connection.received()).toMatch(/^HTTP\/1\.1 413 /);
    // The limit plus what sat in socket buffers when it was reached.
    expect(server.requests[0]?.socket.bytesRead).toBeLessThan(16 * 1024 * 1024);
  });

  it('closes the connection after maxMs when the rest of the body does not come', async () => {
    // A real socket timeout, made short: the test waits for the close it causes, not for a time.
    const server = await startServer({ maxBytes: 8 * 1024 * 1024, maxMs: 100 });
    const connection = await connect(server.url);
    connection.socket.write(`${head(1024)}only a part`);
    await connection.until(/^HTTP\/1\.1 413 /);
    // Answered, and still open: the rest of the body may yet come.
    expect(server.isClosed()).toBe(false);
    await server.closed();
  });

  it('closes the connection as soon as the rest of the body is through', async () => {
    // maxMs far past the test's timeout: a close that waited for it would fail the test.
    const server = await startServer({ maxBytes: 8 * 1024 * 1024, maxMs: 600_000 });
    const connection = await connect(server.url);
    connection.socket.write(`${head(10)}01234`);
    await connection.until(/^HTTP\/1\.1 413 /);
    expect(server.isClosed()).toBe(false);
    connection.socket.write('56789');
    await server.closed();
  });

  it('on a kept-alive connection, reads the next request once the body is through', async () => {
    const server = await startServer({ maxBytes: 8 * 1024 * 1024, maxMs: 5_000 }, false);
    const connection = await connect(server.url);
    connection.socket.write(`${head(10)}01234`);
    await connection.until(/^HTTP\/1\.1 413 /);
    connection.socket.write(`56789${head(0)}`);
    await connection.until(/HTTP\/1\.1 413 [\s\S]*HTTP\/1\.1 413 /);
    expect(connection.socket.destroyed).toBe(false);
  });
});
