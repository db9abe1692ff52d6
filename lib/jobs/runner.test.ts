/**
 * The job runner against a real User Group Service on loopback and a real console database:
 * what each row leaves in the service, the directory and the audit log, a refused key, and a job
 * taken over from a console that died mid-rotation. (Its pace: runner-pace.test.ts; the directory's
 * catch-up: directory-catch-up.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
// The runners here keep their default clock (realClock): a lease runs out against it.
import { realClock } from '@/lib/clock';
import { findDirectoryEntry } from '@/lib/directory/store';
import { steerJob } from './job-transitions';
import { jobResultRows } from './result-rows';
import { jobsDb } from './schema';
import { apiFor, csv, owner, type RunnerTestBed, runnerTestBed } from './test-support';

const bed = runnerTestBed('jobs-runner');
const { vault, runner, finished, getOrCreateJob, rotateJobFor } = bed;
let database: RunnerTestBed['database'];
let service: RunnerTestBed['service'];
let keys: RunnerTestBed['keys'];

beforeAll(() => {
  ({ database, service, keys } = bed);
});

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

  it('rotates 200 tokens: each group ends with exactly one new token, all in the result, every old one refused', async () => {
    const api = apiFor(service.url, keys.testing);
    const { groups, id } = await rotateJobFor('rot', 200);
    const old = groups.map((group) => group.token);
    await steerJob(database.db, id, 'start', {}, realClock);
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

  it('pauses a job whose environment has no API key, saying so by its code, not by the error’s words', async () => {
    const noKey = Object.assign(new Error('USER_GROUP_API_KEY_TESTING is not set'), {
      code: 'environment_not_configured',
    });
    const jobRunner = runner({
      api: () => {
        throw noKey;
      },
    });
    jobRunner.start();
    try {
      const id = await getOrCreateJob(csv(3, 'no-key'));
      const progress = await finished(id);
      expect(progress?.job).toMatchObject({ status: 'paused', paused_reason: 'environment_not_configured' });
      expect(progress?.counts).toMatchObject({ pending: 3, done: 0, failed: 0 });
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
      .set({ lease_owner: 'dead', lease_expires_at: new Date(realClock.now() - 1).toISOString() })
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
    await steerJob(database.db, id, 'start', {}, realClock);
    // The dead console: its lease ran out; it had sent rows 1 and 2, and the service rotated row 1
    // before the console died (its answer was lost); row 2's request never arrived.
    const lost = await api.rotate({ current_token: groups[0]?.token as string });
    const jobs = jobsDb(database.db);
    await jobs
      .updateTable('bulk_job')
      .set({ lease_owner: 'dead', lease_expires_at: new Date(realClock.now() - 1).toISOString() })
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
