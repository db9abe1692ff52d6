/**
 * The Redis the shared-limit tests count in: REDIS_TEST_URL, else 127.0.0.1:6379, as on the
 * project's machines. Without one those tests are skipped with one loud line, except in CI, where
 * skipping would hide a broken shared limit: there they fail.
 */
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';

const TEST_REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/** The URL when Redis answers a PING, else null. */
export async function reachableTestRedis(): Promise<string | null> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return TEST_REDIS_URL;
  } catch {
    if (process.env.CI && process.env.CI !== 'false') {
      throw new Error(
        `Redis does not answer at ${new URL(TEST_REDIS_URL).host}, and CI must not skip the shared-limit tests.`,
      );
    }
    console.warn(
      `\n!!! Redis does not answer at ${new URL(TEST_REDIS_URL).host}: SKIPPING the shared-limit tests !!!\n`,
    );
    return null;
  } finally {
    redis.disconnect();
  }
}

/** A key prefix of its own, so runs sharing one Redis never count each other's attempts. */
export const testNamespace = (name: string): string => `test-${name}-${randomBytes(6).toString('hex')}`;

/**
 * A relay on loopback to the test Redis that can stop answering while its connections stay open: a
 * Redis that hangs, for the clients that connect through it only. (CLIENT PAUSE would stall every
 * test file's clients on the shared Redis.) `hang()` holds what clients send until `resume()`.
 */
export async function hangableRedis(redisUrl: string) {
  const target = new URL(redisUrl);
  let held: Array<() => void> | null = null;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const redis = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, redis]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        redis.destroy();
      });
    }
    client.on('data', (chunk) => (held ? held.push(() => redis.write(chunk)) : redis.write(chunk)));
    redis.on('data', (chunk) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(redisUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    hang: () => {
      held ??= [];
    },
    resume: () => {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
