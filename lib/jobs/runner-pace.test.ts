/**
 * The job runner's pace against a real User Group Service limited to 3 requests a second: one
 * instance's, and two instances' sharing it through Redis. Each takes about 34 s of waiting and
 * little else, so the two run side by side (each on its own bed: its own service and console
 * database, so neither runner finds the other's jobs), and the file is among the first Vitest starts
 * (vitest.config.ts), its waiting beside the other files' work. The rest: runner.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLimitCounters } from '@/lib/rate-limit/counters';
import { reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { createTestKeys, startTestService } from '@/lib/user-group-service/test-support';
import { jobsDb } from './schema';
import { jobProgress } from './store';
import { apiFor, csv, runnerTestBed, until } from './test-support';

const alone = runnerTestBed('jobs-runner-pace');
const shared = runnerTestBed('jobs-runner-pace-shared');
const redisUrl = await reachableTestRedis();

/** A service of the bed's own that allows 3 requests a second (burst 3), and a key for it. */
async function limitedService(bed: typeof alone, name: string) {
  const serviceDatabase = path.join(bed.temp.dir, `${name}.sqlite`);
  const keys = await createTestKeys(serviceDatabase);
  const service = await startTestService(serviceDatabase, { rateLimit: { perSecond: 3, burst: 3 } });
  return { service, key: keys.testing };
}

/** 100 requests in evenly spaced slots a third of a second (plus the pacer's 2%) apart: 34 s. */
function expectWithinTenPercentOfThreePerSecond(requests: number, startedAt: number) {
  const rate = requests / ((performance.now() - startedAt) / 1000);
  expect(rate).toBeGreaterThan(2.7);
  expect(rate).toBeLessThan(3.3);
}

describe.concurrent('the bulk job runner’s pace', () => {
  it('paces requests to the environment’s rate and retries 429s: no failed row at a 3 per second limit', async () => {
    const limited = await limitedService(alone, 'limited');
    const jobRunner = alone.runner({ api: () => apiFor(limited.service.url, limited.key), pace: () => 180 });
    try {
      const id = await alone.getOrCreateJob(csv(100, 'paced'));
      const started = performance.now();
      jobRunner.start();
      const progress = await until(
        () => jobProgress(alone.database.db, id),
        (value) => value?.job.status === 'finished',
        90_000,
      );
      expect(progress?.counts).toMatchObject({ done: 100, failed: 0 });
      expectWithinTenPercentOfThreePerSecond(100, started);
    } finally {
      await jobRunner.stop();
      await limited.service.close();
    }
  }, 120_000);

  it.skipIf(!redisUrl)(
    'two instances on one database share the environment’s pace through Redis: no failed row at a 3 per second limit',
    async () => {
      const limited = await limitedService(shared, 'limited-shared');
      const namespace = testNamespace('bulk-pace');
      // A console instance: its own Redis connection and runner; one namespace for both.
      const instance = () => {
        const paceSlots = createLimitCounters({ redisUrl, namespace });
        const api = apiFor(limited.service.url, limited.key);
        // Looks for jobs when started and not again during the test: each runs the job it found.
        const jobRunner = shared.runner({ api: () => api, pace: () => 180, paceSlots, pollMs: 600_000 });
        return { paceSlots, jobRunner };
      };
      const [a, b] = [instance(), instance()];
      const leases = (ids: string[]) =>
        jobsDb(shared.database.db)
          .selectFrom('bulk_job')
          .select('lease_owner')
          .where('id', 'in', ids)
          .execute();
      try {
        await Promise.all([a.paceSlots.ready(), b.paceSlots.ready()]);
        const started = performance.now();
        const first = await shared.getOrCreateJob(csv(50, 'shared-a'));
        a.jobRunner.start();
        await until(
          () => leases([first]),
          ([lease]) => Boolean(lease?.lease_owner),
        );
        const second = await shared.getOrCreateJob(csv(50, 'shared-b'));
        b.jobRunner.start();
        const owners = await until(
          () => leases([first, second]),
          (rows) => rows.every((row) => row.lease_owner),
        );
        expect(new Set(owners.map((row) => row.lease_owner)).size).toBe(2);
        const progress = await Promise.all(
          [first, second].map((id) =>
            until(
              () => jobProgress(shared.database.db, id),
              (value) => value?.job.status === 'finished',
              90_000,
            ),
          ),
        );
        for (const job of progress) expect(job?.counts).toMatchObject({ done: 50, failed: 0 });
        // Both instances' 100 requests in one schedule of slots. (Each pacing on its own would send
        // 6/s: rows fail, refused 8 times.)
        expectWithinTenPercentOfThreePerSecond(100, started);
      } finally {
        await Promise.all([a.jobRunner.stop(), b.jobRunner.stop()]);
        await Promise.all([a.paceSlots.close(), b.paceSlots.close()]);
        await limited.service.close();
      }
    },
    120_000,
  );
});
