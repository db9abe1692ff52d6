/**
 * The Redis the shared-limit tests count in: REDIS_TEST_URL, else 127.0.0.1:6379, as on the
 * project's machines. Without one those tests are skipped with one loud line, except in CI, where
 * skipping would hide a broken shared limit: there they fail.
 */
import { randomBytes } from 'node:crypto';
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
