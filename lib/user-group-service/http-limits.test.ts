/**
 * The node:http server's limits against slow, idle or too many clients: the defaults and options land
 * on the server, a request head that arrives too slowly is answered 408 and closed, and a connection
 * beyond maxConnections is closed on accept.
 */
import { existsSync } from 'node:fs';
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

/** A connection that sent one request and had it answered (or was closed unanswered). */
const answeredConnection = async (service: RunningUserGroupService) => {
  const connection = await connectTo(service);
  connection.socket.write(HEALTH_REQUEST);
  const deadline = Date.now() + 2_000;
  while (!connection.received().includes('\r\n\r\n') && !connection.socket.destroyed) {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
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
    const service = await start({ headersTimeoutMs: 300 });
    const slow = await connectTo(service);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const started = Date.now();
    const answer = await slow.closedWithin(3_000);
    expect(answer, 'the connection is still open after 3 s').not.toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);

    // A client that sends its head in time is answered.
    const prompt = await answeredConnection(service);
    expect(prompt.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes a connection beyond maxConnections on accept, and accepts again once one is gone', async () => {
    const service = await start({ maxConnections: 2 });
    const first = await answeredConnection(service);
    const second = await answeredConnection(service);
    expect([first.received(), second.received()]).toEqual([
      expect.stringMatching(/^HTTP\/1\.1 200 /),
      expect.stringMatching(/^HTTP\/1\.1 200 /),
    ]);

    const third = await connectTo(service);
    third.socket.write(HEALTH_REQUEST);
    expect(await third.closedWithin(2_000), 'the third connection is still open after 2 s').toBe('');

    first.socket.destroy();
    let next: RawConnection | undefined;
    // The server counts the closed connection out asynchronously: retry briefly.
    for (let attempt = 0; attempt < 50; attempt++) {
      next = await answeredConnection(service);
      if (next.received() !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(next?.received()).toMatch(/^HTTP\/1\.1 200 /);
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
