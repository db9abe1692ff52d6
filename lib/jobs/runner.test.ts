/**
 * The job runner against a real User Group Service on loopback and a real console database:
 * what each row leaves in the service, the directory and the audit log, retries and pace (one
 * instance's, and two instances' sharing it through Redis), a refused key, and a job taken over
 * from a console that died mid-rotation.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { migrateAuditLog } from '@/lib/audit/schema';
import { migrateDirectory } from '@/lib/directory/schema';
import { findDirectoryEntry, recordGroupsSeen } from '@/lib/directory/store';
import type { Environment } from '@/lib/environments';
import { createLimitCounters } from '@/lib/rate-limit/counters';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { reachableTestRedis, testNamespace } from '@/lib/testing/test-redis';
import { createUserGroupApi } from '@/lib/user-group-api/client';
import type { RunningUserGroupService } from '@/lib/user-group-service';
import { createTestKeys, makeTempDir, startTestService } from '@/lib/user-group-service/test-support';
import { readGetOrCreateCsv } from './csv';
import { createJobRunner, type JobRunnerOptions } from './runner';
import { jobsDb, migrateJobs } from './schema';
import { createGetOrCreateJob, createRotateJob, jobProgress, jobResultRows, steerJob } from './store';
import { readTokenList } from './token-list';
import { createTokenVault } from './vault';

const owner = { id: 'op-1', email: 'ann@example.com' };
const vault = createTokenVault(randomBytes(32));
let temp: Awaited<ReturnType<typeof makeTempDir>>;
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
let service: RunningUserGroupService;
let keys: { customer: string; testing: string };
const redisUrl = await reachableTestRedis();

beforeAll(async () => {
  temp = await makeTempDir();
  const serviceDatabase = path.join(temp.dir, 'service.sqlite');
  keys = await createTestKeys(serviceDatabase);
  service = await startTestService(serviceDatabase);
  database = await openTestConsoleDatabase('jobs-runner');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  await migrateJobs(database);
});
afterAll(async () => {
  await database.dispose();
  await service.close();
  await temp.remove();
});

const apiFor = (url: string, key: string) =>
  createUserGroupApi({ baseUrl: url, apiKey: key, timeoutMs: 5_000 });

function runner(overrides: Partial<JobRunnerOptions> = {}) {
  return createJobRunner({
    db: database.db,
    vault,
    api: () => apiFor(service.url, keys.testing),
    pace: () => null,
    concurrency: 8,
    log: () => {},
    pollMs: 100,
    leaseMs: 1_000,
    ...overrides,
  });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const finished = (id: string) =>
  until(
    () => jobProgress(database.db, id),
    (progress) => progress?.job.status === 'finished' || progress?.job.status === 'paused',
  );

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
    );
  const reading = readTokenList(groups.map((group) => group.token).join('\n'));
  if (!reading.ok) throw new Error(reading.message);
  const id = await createRotateJob(database.db, vault, {
    environment: 'Testing',
    source: 'pasted',
    owner,
    ...reading,
  });
  return { groups, id };
}

/** A runner started afresh, until the directory has the group: what its catch-up wrote. */
async function caughtUpEntry(userGroupId: string) {
  const next = runner();
  next.start();
  try {
    return await until(
      () => findDirectoryEntry(database.db, 'Testing', userGroupId),
      (found) => found !== null,
      10_000,
    );
  } finally {
    await next.stop();
  }
}

function csv(rows: number, prefix: string) {
  return [
    'user_group_id,name,mapping,properties',
    ...Array.from(
      { length: rows },
      (_, n) => `${prefix}-${n},Group ${n},"{""s"": ""ds_${n}""}","{""n"": ${n}}"`,
    ),
  ].join('\n');
}

async function getOrCreateJob(text: string, environment: Environment = 'Testing') {
  const reading = readGetOrCreateCsv(text);
  if (!reading.ok) throw new Error(reading.message);
  const id = await createGetOrCreateJob(database.db, {
    environment,
    source: 'groups.csv',
    owner,
    ...reading,
  });
  await steerJob(database.db, id, 'start');
  return id;
}

describe('the bulk job runner', () => {
  it('runs every good row of a CSV once, recording each in the directory and the audit log', async () => {
    const jobRunner = runner();
    jobRunner.start();
    try {
      const id = await getOrCreateJob(`${csv(60, 'csv')}\n,no id,,\ncsv-1,duplicate,,`);
      const progress = await finished(id);
      expect(progress?.counts).toMatchObject({
        total: 60,
        invalid: 2,
        done: 60,
        failed: 0,
        pending: 0,
        sending: 0,
      });
      const results = await jobResultRows(database.db, id, vault);
      const done = results.filter((row) => row.status === 'done');
      expect(done).toHaveLength(60);
      const api = apiFor(service.url, keys.testing);
      for (const row of done.slice(0, 10)) {
        const again = await api.getOrCreate({ user_group_id: row.userGroupId as string });
        expect(again.new_user_group).toBe(false);
        expect(again.user_group.token).toBe(row.token);
        expect(again.user_group.properties).toEqual({ n: Number(row.userGroupId?.split('-')[1]) });
      }
      expect(await findDirectoryEntry(database.db, 'Testing', 'csv-7')).toMatchObject({
        mapping: { s: 'ds_7' },
        createdBy: owner.email,
        tokenFingerprint: tokenFingerprint(done[7]?.token),
      });
      const audited = await database.db
        .selectFrom('audit_event')
        .select((eb) => eb.fn.countAll<number>().as('rows'))
        .where('request_id', '=', id)
        .where('outcome', '=', 'success')
        .executeTakeFirstOrThrow();
      expect(Number(audited.rows)).toBe(60);
      // The tokens are sealed at rest: not in the row as text.
      const stored = await jobsDb(database.db)
        .selectFrom('bulk_job_row')
        .select('result_token')
        .where('job_id', '=', id)
        .execute();
      expect(
        stored.some((row) => done.some((result) => row.result_token?.includes(result.token as string))),
      ).toBe(false);
    } finally {
      await jobRunner.stop();
    }
  });

  it('writes to the directory, when it starts, the done rows a console died before writing there', async () => {
    const first = runner();
    first.start();
    const id = await getOrCreateJob(csv(5, 'late'));
    await finished(id);
    await first.stop();
    // As an earlier console left a row it died after recording, before the directory had it.
    await database.db
      .deleteFrom('directory_entry')
      .where('user_group_id', 'in', ['late-1', 'late-3'])
      .execute();
    await jobsDb(database.db)
      .updateTable('bulk_job_row')
      .set({ directory_at: null })
      .where('job_id', '=', id)
      .where('user_group_id', 'in', ['late-1', 'late-3'])
      .execute();
    expect(await findDirectoryEntry(database.db, 'Testing', 'late-3')).toBeNull();
    const entry = await caughtUpEntry('late-3');
    expect(entry).toMatchObject({ name: 'Group 3', mapping: { s: 'ds_3' }, createdBy: owner.email });
    expect(await findDirectoryEntry(database.db, 'Testing', 'late-1')).toMatchObject({ name: 'Group 1' });
    const due = await jobsDb(database.db)
      .selectFrom('bulk_job_row')
      .select('row_number')
      .where('job_id', '=', id)
      .where('directory_at', 'is', null)
      .execute();
    expect(due).toEqual([]);
  });

  it('keeps every row and new token when the directory cannot be written, and catches the directory up later', async () => {
    const api = apiFor(service.url, keys.testing);
    const { groups: old, id } = await rotateJobFor('nodir', 12);
    await whileInsertsFail(database, 'directory_entry', async () => {
      const jobRunner = runner();
      jobRunner.start();
      try {
        await steerJob(database.db, id, 'start');
        expect((await finished(id))?.counts).toMatchObject({ done: 12, failed: 0 });
      } finally {
        await jobRunner.stop();
      }
      // The new tokens are stored and are the groups' current ones; the directory has none of them.
      const results = await jobResultRows(database.db, id, vault);
      for (const [n, group] of old.entries()) {
        const current = await api.getOrCreate({ user_group_id: group.provided_id });
        expect(current.user_group.token).not.toBe(group.token);
        expect(results.find((row) => row.userGroupId === group.provided_id)?.token).toBe(
          current.user_group.token,
        );
        expect(await findDirectoryEntry(database.db, 'Testing', `nodir-${n}`)).toBeNull();
      }
    });
    const entry = await caughtUpEntry('nodir-11');
    const current = await api.getOrCreate({ user_group_id: 'nodir-11' });
    expect(entry?.tokenFingerprint).toBe(tokenFingerprint(current.user_group.token));
  });

  it('rotates 200 tokens: each group ends with exactly one new token, all in the result, every old one refused', async () => {
    const api = apiFor(service.url, keys.testing);
    const { groups, id } = await rotateJobFor('rot', 200);
    const old = groups.map((group) => group.token);
    await steerJob(database.db, id, 'start');
    const jobRunner = runner();
    jobRunner.start();
    try {
      expect((await finished(id))?.counts).toMatchObject({ total: 200, done: 200, failed: 0 });
    } finally {
      await jobRunner.stop();
    }
    const results = await jobResultRows(database.db, id, vault);
    expect(new Set(results.map((row) => row.userGroupId)).size).toBe(200);
    for (const [n, token] of old.entries()) {
      const row = results[n];
      expect(row?.token).toMatch(/^[0-9a-f]{64}$/);
      expect(row?.token).not.toBe(token);
      // The new token is the group's current one; the old one is refused.
      const current = await api.getOrCreate({ user_group_id: `rot-${n}` });
      expect(current.user_group.token).toBe(row?.token);
      await expect(api.rotate({ current_token: token })).rejects.toMatchObject({ kind: 'not_found' });
    }
    // Pasted tokens are erased once the job can run no more.
    const inputs = await jobsDb(database.db)
      .selectFrom('bulk_job_row')
      .select('input_token')
      .where('job_id', '=', id)
      .execute();
    expect(inputs.every((row) => row.input_token === null)).toBe(true);
  });

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

  it('pauses a job whose key is refused, keeping its rows to run after resume', async () => {
    const jobRunner = runner({ api: () => apiFor(service.url, 'ugs_not-a-key') });
    jobRunner.start();
    try {
      const id = await getOrCreateJob(csv(5, 'refused'));
      const progress = await finished(id);
      expect(progress?.job).toMatchObject({
        status: 'paused',
        paused_reason: expect.stringMatching(/refused/),
      });
      expect(progress?.counts).toMatchObject({ pending: 5, done: 0, failed: 0 });
    } finally {
      await jobRunner.stop();
    }
  });

  it('takes over a get-or-create job whose answers a dead console never stored: sent once more, said so', async () => {
    const id = await getOrCreateJob(csv(5, 'lost'));
    // The dead console: it sent rows 1 and 2 (they are `sending`); the service created row 1's
    // group, but the console died before it stored the answer.
    const api = apiFor(service.url, keys.testing);
    const created = await api.getOrCreate({ user_group_id: 'lost-0', name: 'Group 0' });
    const jobs = jobsDb(database.db);
    await jobs
      .updateTable('bulk_job')
      .set({ lease_owner: 'dead', lease_expires_at: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', id)
      .execute();
    await jobs
      .updateTable('bulk_job_row')
      .set({ status: 'sending' })
      .where('job_id', '=', id)
      .where('row_number', 'in', [1, 2])
      .execute();
    const jobRunner = runner();
    jobRunner.start();
    try {
      expect((await finished(id))?.counts).toMatchObject({ done: 5, failed: 0 });
    } finally {
      await jobRunner.stop();
    }
    const results = await jobResultRows(database.db, id, vault);
    // The group the lost answer made: the same token, and a word that this job may have made it.
    expect(results[0]).toMatchObject({
      token: created.user_group.token,
      error: expect.stringMatching(/interrupted/),
    });
    // Sent before but never arrived: created now, as new, with nothing to explain.
    expect(results[1]).toMatchObject({ error: null });
  });

  it('takes over a job from a console that died mid-rotation without rotating any token twice', async () => {
    const api = apiFor(service.url, keys.testing);
    // Known to the directory, so the job can find each token's group.
    const { groups, id } = await rotateJobFor('crash', 6, { inDirectory: true });
    await steerJob(database.db, id, 'start');
    // The dead console: its lease ran out; it had sent rows 1 and 2, and the service rotated row 1
    // before the console died (its answer was lost); row 2's request never arrived.
    const lost = await api.rotate({ current_token: groups[0]?.token as string });
    const jobs = jobsDb(database.db);
    await jobs
      .updateTable('bulk_job')
      .set({ lease_owner: 'dead', lease_expires_at: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', id)
      .execute();
    await jobs
      .updateTable('bulk_job_row')
      .set({ status: 'sending' })
      .where('job_id', '=', id)
      .where('row_number', 'in', [1, 2])
      .execute();
    const jobRunner = runner();
    jobRunner.start();
    try {
      expect((await finished(id))?.counts).toMatchObject({ done: 6, failed: 0 });
    } finally {
      await jobRunner.stop();
    }
    const results = await jobResultRows(database.db, id, vault);
    // Row 1: read back, not rotated again; the token the lost answer carried is the result.
    expect(results[0]).toMatchObject({
      token: lost.user_group.token,
      error: expect.stringMatching(/read back/),
    });
    for (const [n, row] of results.entries()) {
      const current = await api.getOrCreate({ user_group_id: `crash-${n}` });
      expect(current.user_group.token).toBe(row.token);
    }
  });
});
