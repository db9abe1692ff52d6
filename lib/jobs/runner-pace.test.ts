/**
 * The job runner's pace, on a test clock moved slot by slot instead of waited for: one instance's
 * requests, and two instances' sharing one schedule (as they share Redis's), go out at the
 * environment's rate, none early. In front of the real service stands a gate that notes each
 * request's time on the clock and refuses one that comes sooner than a service allowing 3 a second
 * would take it (429). The same pace in real time, against a service limited to 3 a second, is the
 * bench's (`npm run bench -- pace`); Redis's schedule itself: pacer.test.ts. The rest: runner.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type TestClock, testClock } from '@/lib/clock';
import type { LimitCounters } from '@/lib/rate-limit/counters';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import type { JobRunner, JobRunnerOptions } from './runner';
import { jobsDb } from './schema';
import { jobProgress } from './store';
import { apiFor, csv, runnerTestBed } from './test-support';

const bed = runnerTestBed('jobs-runner-pace');

/** 180 a minute, a slot every third of a second plus the pacer's 2%. */
const PACE = 180;
const SLOT_MS = (60_000 / PACE) * 1.02;
/** What the service allows: 3 a second, evenly. */
const SERVICE_GAP_MS = 1_000 / 3;

/** The real service behind a gate that notes when, on the clock, each request came. */
function limitedService(clock: TestClock) {
  const sentAt: number[] = [];
  let refused = 0;
  let watchers: Array<{ count: number; resolve: () => void }> = [];
  const real = apiFor(bed.service.url, bed.keys.testing);
  const api: Pick<UserGroupApi, 'getOrCreate'> = {
    getOrCreate(body) {
      const at = clock.monotonic();
      const last = sentAt.at(-1);
      sentAt.push(at);
      for (const watcher of watchers.filter(({ count }) => sentAt.length >= count)) watcher.resolve();
      watchers = watchers.filter(({ count }) => sentAt.length < count);
      if (last !== undefined && at - last < SERVICE_GAP_MS) {
        refused++;
        return Promise.reject(
          new UpstreamError('rate_limited', 'slow down', { status: 429, retryAfterSeconds: 0 }),
        );
      }
      return real.getOrCreate(body);
    },
  };
  return {
    api: api as UserGroupApi,
    sentAt,
    refused: () => refused,
    /** Resolves once `count` requests came. */
    sent: (count: number) =>
      new Promise<void>((resolve) => {
        if (sentAt.length >= count) resolve();
        else watchers.push({ count, resolve });
      }),
  };
}

/** Redis's schedule (lib/rate-limit/counters.ts NEXT_SLOT) in this process, on the test clock. */
function sharedSchedule(clock: TestClock): Pick<LimitCounters, 'nextSlot'> {
  const next = new Map<string, number>();
  return {
    nextSlot: async (name, intervalMs) => {
      const now = clock.monotonic();
      const slot = Math.max(now, next.get(name) ?? 0);
      next.set(name, slot + intervalMs);
      return slot - now;
    },
  };
}

/**
 * Until the jobs finish: the clock moves one slot at a time, once the request of every slot that has
 * come is sent. A lease far longer than the run keeps its renewals out of the way (pacedRunner).
 */
async function runSlotBySlot(
  clock: TestClock,
  service: ReturnType<typeof limitedService>,
  runners: JobRunner[],
  ids: string[],
) {
  let done = false;
  // Once every run the runners took has ended (no polling: the runners say so).
  const finishing = Promise.all(runners.map((runner) => runner.idle()))
    .then(() => Promise.all(ids.map((id) => jobProgress(bed.database.db, id, new Date(clock.now())))))
    .finally(() => {
      done = true;
    });
  for (let slot = 1; !done; slot++) {
    // Every slot that has come let its request go (the first is now, at the start).
    await Promise.race([finishing, service.sent(slot)]);
    // Asleep on this clock: the lease's renewal and a request waiting for its slot.
    await Promise.race([finishing, clock.sleeping(2)]);
    await clock.advance(SLOT_MS);
  }
  return finishing;
}

function pacedRunner(
  clock: TestClock,
  service: ReturnType<typeof limitedService>,
  options: Partial<JobRunnerOptions> = {},
): JobRunner {
  return bed.runner({ api: () => service.api, pace: () => PACE, clock, leaseMs: 600_000, ...options });
}

/** Every request in its own slot, one slot after another. */
function expectOneRequestPerSlot(sentAt: number[], requests: number) {
  expect(sentAt).toHaveLength(requests);
  for (const [n, at] of sentAt.entries()) expect(at - (sentAt[0] as number)).toBeCloseTo(n * SLOT_MS);
}

describe('the bulk job runner’s pace', () => {
  it('sends a job’s requests at the environment’s rate: none refused at a 3 per second limit', async () => {
    const clock = testClock();
    const service = limitedService(clock);
    const jobRunner = pacedRunner(clock, service);
    try {
      const id = await bed.getOrCreateJob(csv(60, 'paced'));
      jobRunner.start();
      const [progress] = await runSlotBySlot(clock, service, [jobRunner], [id]);
      expect(progress?.counts).toMatchObject({ done: 60, failed: 0 });
      expect(service.refused()).toBe(0);
      expectOneRequestPerSlot(service.sentAt, 60);
    } finally {
      await jobRunner.stop();
    }
  });

  it('two instances on one database share the environment’s schedule: one pace between them', async () => {
    const clock = testClock();
    const service = limitedService(clock);
    const paceSlots = sharedSchedule(clock);
    // Each looks for jobs when started and not again during the test: each runs the job it found.
    const a = pacedRunner(clock, service, { paceSlots, pollMs: 600_000 });
    const b = pacedRunner(clock, service, { paceSlots, pollMs: 600_000 });
    const leases = (ids: string[]) =>
      jobsDb(bed.database.db).selectFrom('bulk_job').select('lease_owner').where('id', 'in', ids).execute();
    try {
      const first = await bed.getOrCreateJob(csv(30, 'shared-a'));
      a.start();
      await a.looked();
      expect((await leases([first]))[0]?.lease_owner).toBeTruthy();
      const second = await bed.getOrCreateJob(csv(30, 'shared-b'));
      b.start();
      await b.looked();
      const owners = await leases([first, second]);
      expect(owners.every((row) => row.lease_owner)).toBe(true);
      expect(new Set(owners.map((row) => row.lease_owner)).size).toBe(2);
      const progress = await runSlotBySlot(clock, service, [a, b], [first, second]);
      for (const job of progress) expect(job?.counts).toMatchObject({ done: 30, failed: 0 });
      // Both instances' 60 requests in one schedule. (Each pacing on its own would send two a slot.)
      expect(service.refused()).toBe(0);
      expectOneRequestPerSlot(service.sentAt, 60);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
