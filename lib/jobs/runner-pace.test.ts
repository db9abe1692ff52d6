/**
 * The job runner's pace against a real User Group Service limited to 3 requests a second: one
 * instance's (two instances' sharing it through Redis: runner-pace-shared.test.ts). It takes about
 * 34 s of waiting, so it sits in a file of its own that Vitest runs beside the others (the rest:
 * runner.test.ts).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestKeys, startTestService } from '@/lib/user-group-service/test-support';
import { jobProgress } from './store';
import { apiFor, csv, type RunnerTestBed, runnerTestBed, until } from './test-support';

const bed = runnerTestBed('jobs-runner-pace');
const { runner, getOrCreateJob } = bed;
let temp: RunnerTestBed['temp'];
let database: RunnerTestBed['database'];

beforeAll(() => {
  ({ temp, database } = bed);
});

describe('the bulk job runner’s pace', () => {
  it('paces requests to the environment’s rate and retries 429s: no failed row at a 3 per second limit', async () => {
    const serviceDatabase = path.join(temp.dir, 'limited.sqlite');
    const limitedKeys = await createTestKeys(serviceDatabase);
    const limited = await startTestService(serviceDatabase, { rateLimit: { perSecond: 3, burst: 3 } });
    const jobRunner = runner({ api: () => apiFor(limited.url, limitedKeys.testing), pace: () => 180 });
    try {
      const id = await getOrCreateJob(csv(100, 'paced'));
      const started = performance.now();
      jobRunner.start();
      const progress = await until(
        () => jobProgress(database.db, id),
        (value) => value?.job.status === 'finished',
        90_000,
      );
      const seconds = (performance.now() - started) / 1000;
      expect(progress?.counts).toMatchObject({ done: 100, failed: 0 });
      // 100 requests in evenly spaced slots a third of a second (plus the pacer's 2%) apart: 34 s;
      // within 10% of 3/s.
      const rate = 100 / seconds;
      expect(rate).toBeGreaterThan(2.7);
      expect(rate).toBeLessThan(3.3);
    } finally {
      await jobRunner.stop();
      await limited.close();
    }
  }, 120_000);
});
