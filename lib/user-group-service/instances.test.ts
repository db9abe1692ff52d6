/**
 * Several instances behind a balancer: two `serve` processes on one PostgreSQL database and one
 * Redis. Races split across both settle exactly once, the per-key rate limit holds across both
 * (within 10% of what one instance allows), and a revoked API key is refused by both within the 5 s
 * promised (the key cache lasts at most 4 s). Both run on a clock this file moves (parent-clock.ts),
 * so the key cache's lifetime is shown without waiting for it; the rate limit's windows live in
 * Redis, and are timed on Redis's own clock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachableTestRedis } from '../testing/test-redis';
import { createApiKey, revokeApiKey } from './api-keys';
import { REVOCATION_PROMISE_MS } from './authenticator';
import { type AdvanceMessage, TEST_CLOCK_ENV } from './parent-clock';
import { BURST_WINDOW_SECONDS } from './rate-limiter';
import { call, createPostgresBackend, TEST_ENCRYPTION_KEY } from './test-support';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const postgres = await createPostgresBackend();
const redisUrl = await reachableTestRedis();
const limit = { perSecond: 5, burst: 50 };

const children: ChildProcess[] = [];

interface Instance {
  url: string;
  child: ChildProcess;
}

let advances = 0;
/** Moves one instance's clock on by `ms`; resolves once the instance has woken what was due. */
function advance(child: ChildProcess, ms: number): Promise<void> {
  const id = ++advances;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { advanced?: number }) => {
      if (message.advanced !== id) return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    child.send({ advance: ms, id } satisfies AdvanceMessage, (error) => error && reject(error));
  });
}

/** Redis's clock in ms: the one the shared rate limit's windows run on. */
async function redisNow(redis: Redis): Promise<number> {
  const [seconds, microseconds] = await redis.time();
  return Number(seconds) * 1000 + Number(microseconds) / 1000;
}

async function serve(database: string): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'lib/user-group-service/cli.ts',
      'serve',
      '--port',
      '0',
      '--database',
      database,
      '--rate-limit-per-second',
      String(limit.perSecond),
      '--rate-limit-burst',
      String(limit.burst),
      '--log-level',
      'info',
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        SERVICE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        REDIS_URL: redisUrl ?? '',
        [TEST_CLOCK_ENV]: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  children.push(child);
  let buffered = '';
  return new Promise<Instance>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        if (!line.includes('"msg":"listening"')) continue;
        const listening = JSON.parse(line) as { url: string; rate_limit: string };
        if (listening.rate_limit !== 'shared (Redis)')
          reject(new Error(`rate limit is ${listening.rate_limit}`));
        resolve({ url: listening.url, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
}

describe.skipIf(!postgres || !redisUrl)(
  'two service processes on one PostgreSQL database and one Redis',
  () => {
    let instances: Instance[] = [];
    let urls: string[] = [];

    beforeAll(async () => {
      instances = await Promise.all([serve(postgres?.database ?? ''), serve(postgres?.database ?? '')]);
      urls = instances.map((instance) => instance.url);
    });

    afterAll(async () => {
      for (const child of children) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await postgres?.dispose();
    });

    it('settles a 50-way create and a 20-way rotate split across both exactly once', async () => {
      const database = postgres?.database ?? '';
      // A key each: 50 calls at once are within the burst.
      const creator = await createApiKey({ database, environment: 'Testing', name: 'races' });
      const creates = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          call(
            urls[index % 2] ?? '',
            'GET',
            { user_group_id: 'race-across-processes' },
            { key: creator.key },
          ),
        ),
      );
      expect(creates.map((answer) => answer.status)).toEqual(Array(50).fill(200));
      expect(creates.filter((answer) => answer.json.new_user_group === true)).toHaveLength(1);
      expect(new Set(creates.map((answer) => answer.json.user_group.token)).size).toBe(1);

      const rotator = await createApiKey({ database, environment: 'Testing', name: 'rotations' });
      const token = creates[0]?.json.user_group.token as string;
      const rotations = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          call(urls[index % 2] ?? '', 'POST', { current_token: token }, { key: rotator.key }),
        ),
      );
      expect(rotations.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(rotations.filter((answer) => answer.status === 404)).toHaveLength(19);
    });

    it('holds the per-key rate limit across both, within 10%', async () => {
      const database = postgres?.database ?? '';
      const { key } = await createApiKey({ database, environment: 'Testing', name: 'flood' });
      const statuses: number[] = [];
      const redis = new Redis(redisUrl ?? '');
      const started = await redisNow(redis);
      // 240 calls, 8 at a time, alternating between the two instances.
      for (let round = 0; round < 30; round++) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            call(urls[index % 2] ?? '', 'GET', { user_group_id: `flood-${round}-${index}` }, { key }),
          ),
        );
        for (const answer of answers) {
          statuses.push(answer.status);
          if (answer.status === 429) expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
      }
      const seconds = Math.ceil(((await redisNow(redis)) - started) / 1000);
      redis.disconnect();
      expect(seconds).toBeLessThan(BURST_WINDOW_SECONDS);
      const allowed = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // What one instance allows in that time: the burst at once, then the rate each second.
      const oneInstance = limit.burst + limit.perSecond * seconds;
      process.stdout.write(
        `rate limit across two instances: ${allowed} allowed in ${seconds} s (one instance: ≤ ${oneInstance})\n`,
      );
      expect(allowed).toBeGreaterThanOrEqual(limit.burst);
      expect(allowed).toBeLessThanOrEqual(Math.floor(oneInstance * 1.1));
    });

    it('refuses a revoked API key on both within the key cache lifetime', async () => {
      const database = postgres?.database ?? '';
      const created = await createApiKey({ database, environment: 'Testing', name: 'to revoke' });
      // Both instances have the key in their cache.
      for (const url of urls) {
        expect(
          (await call(url, 'GET', { user_group_id: 'before-revoke' }, { key: created.key })).status,
        ).toBe(200);
      }
      expect(await revokeApiKey({ database, id: created.id })).toBe(true);
      // Each instance's time is moved on 100 ms at a time until it refuses the key (a request takes
      // no time on these clocks), and no further than the promise allows.
      const refusedAfter = await Promise.all(
        instances.map(async ({ url, child }) => {
          let moved = 0;
          while (
            moved <= REVOCATION_PROMISE_MS &&
            (await call(url, 'GET', { user_group_id: 'after-revoke' }, { key: created.key })).status !== 401
          ) {
            await advance(child, 100);
            moved += 100;
          }
          return moved;
        }),
      );
      process.stdout.write(`revoked key refused after ${refusedAfter.join(' ms and ')} ms\n`);
      for (const ms of refusedAfter) expect(ms).toBeLessThanOrEqual(REVOCATION_PROMISE_MS);
    });
  },
);
