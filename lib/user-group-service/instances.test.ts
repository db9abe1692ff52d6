/**
 * Several instances behind a balancer: two `serve` processes on one PostgreSQL database and one
 * Redis. Races split across both settle exactly once, the per-key rate limit holds across both
 * (within 10% of what one instance allows), and a revoked API key is refused by both within the 5 s
 * promised (the key cache lasts at most 4 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachableTestRedis } from '../testing/test-redis';
import { createApiKey, revokeApiKey } from './api-keys';
import { REVOCATION_PROMISE_MS } from './authenticator';
import { BURST_WINDOW_SECONDS } from './rate-limiter';
import { call, createPostgresBackend, TEST_ENCRYPTION_KEY } from './test-support';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const postgres = await createPostgresBackend();
const redisUrl = await reachableTestRedis();
const limit = { perSecond: 5, burst: 50 };

const children: ChildProcess[] = [];

async function serve(database: string): Promise<string> {
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
      env: { ...process.env, SERVICE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, REDIS_URL: redisUrl ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  let buffered = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        if (!line.includes('"msg":"listening"')) continue;
        const listening = JSON.parse(line) as { url: string; rate_limit: string };
        if (listening.rate_limit !== 'shared (Redis)')
          reject(new Error(`rate limit is ${listening.rate_limit}`));
        resolve(listening.url);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
}

describe.skipIf(!postgres || !redisUrl)(
  'two service processes on one PostgreSQL database and one Redis',
  () => {
    let urls: string[] = [];

    beforeAll(async () => {
      urls = await Promise.all([serve(postgres?.database ?? ''), serve(postgres?.database ?? '')]);
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
      const started = Date.now();
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
      const seconds = Math.ceil((Date.now() - started) / 1000);
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
      const revokedAt = Date.now();
      const refusedAfter = await Promise.all(
        urls.map(async (url) => {
          while (
            (await call(url, 'GET', { user_group_id: 'after-revoke' }, { key: created.key })).status !== 401
          ) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return Date.now() - revokedAt;
        }),
      );
      process.stdout.write(`revoked key refused after ${refusedAfter.join(' ms and ')} ms\n`);
      for (const ms of refusedAfter) expect(ms).toBeLessThanOrEqual(REVOCATION_PROMISE_MS);
    });
  },
);
