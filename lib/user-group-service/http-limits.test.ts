/**
 * The node:http server's limits against slow, idle or too many clients: the defaults and options land
 * on the server, a request head that arrives too slowly is answered 408 and closed, and a connection
 * beyond maxConnections is closed on accept.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, type RunningUserGroupService } from './server';
import {
  createSqliteBackend,
  openRawConnection,
  type RawConnection,
  startTestService,
  type TestBackend,
} from './test-support';

const HEALTH_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

let backend: TestBackend;
const services: RunningUserGroupService[] = [];
const connections: RawConnection[] = [];

const start = async (overrides: Parameters<typeof startTestService>[1]) => {
  const service = await startTestService(backend.database, overrides);
  services.push(service);
  return service;
};

const connectTo = async (service: RunningUserGroupService) => {
  const connection = await openRawConnection(service.url);
  connections.push(connection);
  return connection;
};

/** Yields the event loop `count` times: what was to happen at once has happened. */
const turns = async (count: number) => {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** A connection that sent one request and had it answered (or was closed unanswered). */
const answeredConnection = async (service: RunningUserGroupService) => {
  const connection = await connectTo(service);
  connection.socket.write(HEALTH_REQUEST);
  // On the socket's own events: its answer's head came, or it was closed.
  await new Promise<void>((resolve) => {
    const check = () => {
      if (!connection.received().includes('\r\n\r\n') && !connection.socket.destroyed) return;
      connection.socket.off('data', check);
      connection.socket.off('close', check);
      resolve();
    };
    connection.socket.on('data', check);
    connection.socket.on('close', check);
    check();
  });
  return connection;
};

beforeAll(async () => {
  backend = await createSqliteBackend();
});

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.socket.destroy();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

afterAll(async () => {
  await backend?.dispose();
});

describe('HTTP limits', () => {
  it('sets the defaults on the server', async () => {
    const { server } = await start({});
    expect(server).toMatchObject({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      maxConnections: 1024,
    });
    expect(DEFAULT_HTTP_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1024,
    });
  });

  it('sets the configured values on the server', async () => {
    const { server } = await start({
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 7,
    });
    expect(server).toMatchObject({
      headersTimeout: 2_000,
      requestTimeout: 4_000,
      keepAliveTimeout: 1_000,
      maxConnections: 7,
    });
  });

  it('answers 408 and closes a connection whose request head is not complete within headersTimeout', async () => {
    // A real socket timeout, made short: the test waits for the close it causes, not for a time.
    const service = await start({ headersTimeoutMs: 300 });
    const slow = await connectTo(service);
    const closed = once(slow.socket, 'close');
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await turns(3);
    expect(slow.socket.destroyed, 'closed before its time was up').toBe(false);
    await closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);

    // A client that sends its head in time is answered.
    const prompt = await answeredConnection(service);
    expect(prompt.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes a connection beyond maxConnections on accept, and accepts again once one is gone', async () => {
    const service = await start({ maxConnections: 2 });
    const accepted: Socket[] = [];
    service.server.on('connection', (socket: Socket) => accepted.push(socket));
    const first = await answeredConnection(service);
    const second = await answeredConnection(service);
    expect([first.received(), second.received()]).toEqual([
      expect.stringMatching(/^HTTP\/1\.1 200 /),
      expect.stringMatching(/^HTTP\/1\.1 200 /),
    ]);

    const third = await connectTo(service);
    const thirdClosed = once(third.socket, 'close');
    third.socket.write(HEALTH_REQUEST);
    await thirdClosed;
    expect(third.received()).toBe('');

    // The server counts a connection out when its side closes: that event, then one more is let in.
    const firstOnServer = accepted[0];
    const counted = firstOnServer ? once(firstOnServer, 'close') : Promise.reject(new Error('not seen'));
    first.socket.destroy();
    await counted;
    const next = await answeredConnection(service);
    expect(next.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses invalid limits before opening the database', async () => {
    const temp = await createSqliteBackend();
    try {
      await expect(
        startTestService(temp.database, { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }),
      ).rejects.toThrow('headersTimeoutMs must not exceed requestTimeoutMs');
      await expect(startTestService(temp.database, { maxConnections: 0 })).rejects.toThrow(
        'maxConnections must be a positive integer',
      );
      expect(existsSync(temp.database)).toBe(false);
    } finally {
      await temp.dispose();
    }
  });
});
