/**
 * The job runner's pace against a real User Group Service limited to 3 requests a second, kept by
 * two instances sharing it through Redis (one instance's: runner-pace.test.ts). It takes about 34 s
 * of waiting, so it sits in a file of its own that Vitest runs beside the others (the rest:
 * runner.test.ts).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLimitCounters } from '@/lib/rate-limit/counters';
import { reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { createTestKeys, startTestService } from '@/lib/user-group-service/test-support';
import { jobsDb } from './schema';
import { jobProgress } from './store';
import { apiFor, csv, type RunnerTestBed, runnerTestBed, until } from './test-support';

const bed = runnerTestBed('jobs-runner-pace-shared');
const { runner, getOrCreateJob } = bed;
let temp: RunnerTestBed['temp'];
let database: RunnerTestBed['database'];
const redisUrl = await reachableTestRedis();

beforeAll(() => {
  ({ temp, database } = bed);
});

describe('the bulk job runner’s pace', () => {
  it.skipIf(!redisUrl)(
    'two instances on one database share the environment’s pace through Redis: no failed row at a 3 per second limit',
    async () => {
      const serviceDatabase = path.join(temp.dir, 'limited-shared.sqlite');
      const limitedKeys = await createTestKeys(serviceDatabase);
      const limited = await startTestService(serviceDatabase, { rateLimit: { perSecond: 3, burst: 3 } });
      const namespace = testNamespace('bulk-pace');
      // A console instance: its own Redis connection and runner; one namespace for both.
      const instance = () => {
        const paceSlots = createLimitCounters({ redisUrl, namespace });
        const api = apiFor(limited.url, limitedKeys.testing);
        // Looks for jobs when started and not again during the test: each runs the job it found.
        const jobRunner = runner({ api: () => api, pace: () => 180, paceSlots, pollMs: 600_000 });
        return { paceSlots, jobRunner };
      };
      const [a, b] = [instance(), instance()];
      const leases = (ids: string[]) =>
        jobsDb(database.db).selectFrom('bulk_job').select('lease_owner').where('id', 'in', ids).execute();
      try {
        await Promise.all([a.paceSlots.ready(), b.paceSlots.ready()]);
        const started = performance.now();
        const first = await getOrCreateJob(csv(50, 'shared-a'));
        a.jobRunner.start();
        await until(
          () => leases([first]),
          ([lease]) => Boolean(lease?.lease_owner),
        );
        const second = await getOrCreateJob(csv(50, 'shared-b'));
        b.jobRunner.start();
        const owners = await until(
          () => leases([first, second]),
          (rows) => rows.every((row) => row.lease_owner),
        );
        expect(new Set(owners.map((row) => row.lease_owner)).size).toBe(2);
        const progress = await Promise.all(
          [first, second].map((id) =>
            until(
              () => jobProgress(database.db, id),
              (value) => value?.job.status === 'finished',
              90_000,
            ),
          ),
        );
        const seconds = (performance.now() - started) / 1000;
        for (const job of progress) expect(job?.counts).toMatchObject({ done: 50, failed: 0 });
        // 100 requests from both, in one schedule of slots a third of a second (plus 2%) apart:
        // 34 s, within 10% of 3/s. (Each pacing on its own sends 6/s: rows fail, refused 8 times.)
        const rate = 100 / seconds;
        expect(rate).toBeGreaterThan(2.7);
        expect(rate).toBeLessThan(3.3);
      } finally {
        await Promise.all([a.jobRunner.stop(), b.jobRunner.stop()]);
        await Promise.all([a.paceSlots.close(), b.paceSlots.close()]);
        await limited.close();
      }
    },
    120_000,
  );
});
