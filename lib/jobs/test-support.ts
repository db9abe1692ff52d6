/**
 * Shared by the tests that run jobs end to end (runner.test.ts, directory-catch-up.test.ts): a real
 * User Group Service on loopback, a real console database (SQLite, or PostgreSQL in the PostgreSQL
 * pass) with the audit log, directory and jobs migrated, and helpers to make jobs, run them and wait.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { realClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { findDirectoryEntry, recordGroupsSeen } from '@/lib/directory/store';
import type { Environment } from '@/lib/environments';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createUserGroupApi } from '@/lib/user-group-api/client';
import type { RunningUserGroupService } from '@/lib/user-group-service';
import { createTestKeys, makeTempDir, startTestService } from '@/lib/user-group-service/test-support';
import { readGetOrCreateCsv } from './csv';
import { createGetOrCreateJob, createRotateJob } from './drafts';
import { steerJob } from './job-transitions';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './runner';
import { migrateJobs } from './schema';
import { jobProgress } from './store';
import { readTokenList } from './token-list';
import { createTokenVault } from './vault';

export const owner = { id: 'op-1', email: 'ann@example.com' };

/** The runs here are paced by real HTTP round trips, not by a moved clock: the process's clock. */
const clock = realClock;

export const apiFor = (url: string, key: string) =>
  createUserGroupApi({ baseUrl: url, apiKey: key, timeoutMs: 5_000, clock });

/**
 * Until the runners have no look for jobs and no run under way (each told to look first), then what
 * `read` answers: no polling, no waiting on the clock. A run that ended with its job still running
 * (it lost its lease, say) is looked for again, a bounded number of times.
 */
async function whenIdle<T>(
  runners: readonly JobRunner[],
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  for (let look = 0; ; look++) {
    for (const runner of runners) runner.wake();
    await Promise.all(runners.map((runner) => runner.idle()));
    const value = await read();
    if (done(value) || look === 20) return value;
  }
}

/** A get-or-create CSV of `rows` groups named `<prefix>-<n>`, each with a mapping and properties. */
export function csv(rows: number, prefix: string) {
  return [
    'user_group_id,name,mapping,properties',
    ...Array.from(
      { length: rows },
      (_, n) => `${prefix}-${n},Group ${n},"{""s"": ""ds_${n}""}","{""n"": ${n}}"`,
    ),
  ].join('\n');
}

export type RunnerTestBed = ReturnType<typeof runnerTestBed>;

/** Opened before the file's tests (its hooks registered first, so a file's own run after it). */
export function runnerTestBed(name: string) {
  const vault = createTokenVault(randomBytes(32));
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
  let service: RunningUserGroupService;
  let keys: { customer: string; testing: string };

  beforeAll(async () => {
    temp = await makeTempDir();
    const serviceDatabase = path.join(temp.dir, 'service.sqlite');
    keys = await createTestKeys(serviceDatabase);
    service = await startTestService(serviceDatabase);
    database = await openTestConsoleDatabase(name);
    await migrateAuditLog(database);
    await migrateDirectory(database);
    await migrateJobs(database);
  });
  afterAll(async () => {
    await database.dispose();
    await service.close();
    await temp.remove();
  });

  const runners: JobRunner[] = [];
  function runner(overrides: Partial<JobRunnerOptions> = {}) {
    const made = createJobRunner({
      db: database.db,
      vault,
      api: () => apiFor(service.url, keys.testing),
      pace: () => null,
      concurrency: 8,
      log: () => {},
      pollMs: 100,
      leaseMs: 1_000,
      clock,
      ...overrides,
    });
    runners.push(made);
    return made;
  }

  /** Until the job ended or paused. */
  const finished = (id: string) =>
    whenIdle(
      runners,
      () => jobProgress(database.db, id, new Date(clock.now())),
      (progress) => progress?.job.status === 'finished' || progress?.job.status === 'paused',
    );

  /** A get-or-create job from a CSV, started. */
  async function getOrCreateJob(text: string, environment: Environment = 'Testing') {
    const reading = readGetOrCreateCsv(text);
    if (!reading.ok) throw new Error(reading.message);
    const id = await createGetOrCreateJob(database.db, {
      environment,
      source: 'groups.csv',
      owner,
      ...reading,
      clock,
    });
    await steerJob(database.db, id, 'start', {}, clock);
    return id;
  }

  /**
   * `count` groups made in the Testing service, and a rotation job (not started) of their tokens;
   * `inDirectory`: the directory has the groups first, as this console had made them.
   */
  async function rotateJobFor(prefix: string, count: number, { inDirectory = false } = {}) {
    const api = apiFor(service.url, keys.testing);
    const groups = await Promise.all(
      Array.from(
        { length: count },
        async (_, n) => (await api.getOrCreate({ user_group_id: `${prefix}-${n}` })).user_group,
      ),
    );
    if (inDirectory)
      await recordGroupsSeen(
        database.db,
        groups.map((group) => ({
          kind: 'get-or-create' as const,
          environment: 'Testing' as const,
          operatorEmail: owner.email,
          isNew: true,
          group,
          mappingSent: undefined,
        })),
        clock,
      );
    const reading = readTokenList(groups.map((group) => group.token).join('\n'));
    if (!reading.ok) throw new Error(reading.message);
    const id = await createRotateJob(database.db, vault, {
      environment: 'Testing',
      source: 'pasted',
      owner,
      ...reading,
      // Outside the directory, the tokens are unknown to the console: sent on purpose.
      sendUnknown: !inDirectory,
      clock,
    });
    return { groups, id };
  }

  /** A runner started afresh, until the directory has the group: what its catch-up wrote. */
  async function caughtUpEntry(userGroupId: string) {
    const next = runner();
    next.start();
    try {
      return await whenIdle(
        [next],
        () => findDirectoryEntry(database.db, 'Testing', userGroupId),
        (found) => found !== null,
      );
    } finally {
      await next.stop();
    }
  }

  return {
    vault,
    get temp() {
      return temp;
    },
    get database() {
      return database;
    },
    get service() {
      return service;
    },
    get keys() {
      return keys;
    },
    runner,
    finished,
    getOrCreateJob,
    rotateJobFor,
    caughtUpEntry,
  };
}
