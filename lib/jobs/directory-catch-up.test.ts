/**
 * The directory's catch-up: done rows committed without their directory entry reach the directory
 * later, as the outcome write would have written them; through the runner (when it starts, and
 * after a write the directory refused) and on its own (batches, stopping, failing).
 */

import { describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { realClock, testClock } from '@/lib/clock';
import { directoryDb } from '@/lib/directory/schema';
import { findDirectoryEntry } from '@/lib/directory/store';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { readGetOrCreateCsv } from './csv';
import { createDirectoryCatchUp } from './directory-catch-up';
import { createGetOrCreateJob } from './drafts';
import { steerJob } from './job-transitions';
import { jobResultRows } from './result-rows';
import { jobsDb } from './schema';
import { apiFor, csv, owner, runnerTestBed } from './test-support';

const bed = runnerTestBed('jobs-directory-catch-up');
const { vault, runner, finished, getOrCreateJob, rotateJobFor, caughtUpEntry } = bed;

describe('the directory catch-up, through the runner', () => {
  it('writes to the directory, when it starts, the done rows a console died before writing there', async () => {
    const first = runner();
    first.start();
    const id = await getOrCreateJob(csv(5, 'late'));
    await finished(id);
    await first.stop();
    // As a console leaves rows whose directory write failed when it dies before catching up.
    await directoryDb(bed.database.db)
      .deleteFrom('directory_entry')
      .where('user_group_id', 'in', ['late-1', 'late-3'])
      .execute();
    await jobsDb(bed.database.db)
      .updateTable('bulk_job_row')
      .set({ directory_at: null })
      .where('job_id', '=', id)
      .where('user_group_id', 'in', ['late-1', 'late-3'])
      .execute();
    expect(await findDirectoryEntry(bed.database.db, 'Testing', 'late-3')).toBeNull();
    const entry = await caughtUpEntry('late-3');
    expect(entry).toMatchObject({ name: 'Group 3', mapping: { s: 'ds_3' }, createdBy: owner.email });
    expect(await findDirectoryEntry(bed.database.db, 'Testing', 'late-1')).toMatchObject({ name: 'Group 1' });
    const due = await jobsDb(bed.database.db)
      .selectFrom('bulk_job_row')
      .select('row_number')
      .where('job_id', '=', id)
      .where('directory_at', 'is', null)
      .execute();
    expect(due).toEqual([]);
  });

  it('keeps every row and new token when the directory cannot be written, and catches the directory up later', async () => {
    const api = apiFor(bed.service.url, bed.keys.testing);
    const { groups: old, id } = await rotateJobFor('nodir', 12);
    await whileInsertsFail(bed.database, 'directory_entry', async () => {
      const jobRunner = runner();
      jobRunner.start();
      try {
        await steerJob(bed.database.db, id, 'start', {}, realClock);
        expect((await finished(id))?.counts).toMatchObject({ done: 12, failed: 0 });
      } finally {
        await jobRunner.stop();
      }
      // The new tokens are stored and are the groups' current ones; the directory has none of them.
      const results = await jobResultRows(bed.database.db, id, vault);
      for (const [n, group] of old.entries()) {
        const current = await api.getOrCreate({ user_group_id: group.provided_id });
        expect(current.user_group.token).not.toBe(group.token);
        expect(results.find((row) => row.userGroupId === group.provided_id)?.token).toBe(
          current.user_group.token,
        );
        expect(await findDirectoryEntry(bed.database.db, 'Testing', `nodir-${n}`)).toBeNull();
      }
    });
    const entry = await caughtUpEntry('nodir-11');
    const current = await api.getOrCreate({ user_group_id: 'nodir-11' });
    expect(entry?.tokenFingerprint).toBe(tokenFingerprint(current.user_group.token));
  });
});

/** `count` done rows of a new job, recorded but not in the directory, as a refused directory write leaves them. */
async function doneRowsDue(prefix: string, count: number) {
  const reading = readGetOrCreateCsv(csv(count, prefix));
  if (!reading.ok) throw new Error(reading.message);
  const id = await createGetOrCreateJob(bed.database.db, {
    environment: 'Testing',
    source: 'due.csv',
    owner,
    ...reading,
    clock: realClock,
  });
  await jobsDb(bed.database.db)
    .updateTable('bulk_job_row')
    .set((eb) => ({
      status: 'done',
      result_name: eb.ref('name'),
      result_team_id: 1,
      result_fingerprint: 'fingerprint',
      result_properties: eb.ref('properties'),
      new_user_group: 1,
      finished_at: new Date().toISOString(),
      directory_at: null,
    }))
    .where('job_id', '=', id)
    .execute();
  return id;
}

const dueRows = async (id: string) =>
  (
    await jobsDb(bed.database.db)
      .selectFrom('bulk_job_row')
      .select('row_number')
      .where('job_id', '=', id)
      .where('directory_at', 'is', null)
      .orderBy('row_number')
      .execute()
  ).map((row) => row.row_number);

describe('createDirectoryCatchUp', () => {
  it('writes the due rows in batches, as the outcome write would have, then looks again only when told', async () => {
    const id = await doneRowsDue('due', 5);
    const catchUp = createDirectoryCatchUp({
      jobs: jobsDb(bed.database.db),
      clock: testClock(),
      log: () => {},
      stopping: () => false,
      batchSize: 2,
    });
    catchUp.run();
    await catchUp.settled();
    expect(await dueRows(id)).toEqual([]);
    expect(await findDirectoryEntry(bed.database.db, 'Testing', 'due-4')).toMatchObject({
      name: 'Group 4',
      mapping: { s: 'ds_4' },
      properties: { n: 4 },
      createdBy: owner.email,
      tokenFingerprint: 'fingerprint',
    });
    // Not due: a row left behind since is not looked for until a failed write says so.
    await jobsDb(bed.database.db)
      .updateTable('bulk_job_row')
      .set({ directory_at: null })
      .where('job_id', '=', id)
      .where('row_number', '=', 1)
      .execute();
    catchUp.run();
    await catchUp.settled();
    expect(await dueRows(id)).toEqual([1]);
    catchUp.markDue();
    catchUp.run();
    await catchUp.settled();
    expect(await dueRows(id)).toEqual([]);
  });

  it('stays due when stopping cuts it short or the directory refuses it, and says so in the log', async () => {
    const id = await doneRowsDue('cut', 4);
    let stopAfter = 1;
    const logged: string[] = [];
    const catchUp = createDirectoryCatchUp({
      jobs: jobsDb(bed.database.db),
      clock: testClock(),
      log: (_level, _fields, message) => logged.push(message),
      stopping: () => stopAfter-- <= 0,
      batchSize: 2,
    });
    catchUp.run();
    await catchUp.settled();
    expect(await dueRows(id)).toEqual([3, 4]);
    await whileInsertsFail(bed.database, 'directory_entry', async () => {
      stopAfter = Number.POSITIVE_INFINITY;
      catchUp.run();
      await catchUp.settled();
    });
    expect(logged).toEqual(['could not update the directory from bulk jobs']);
    expect(await dueRows(id)).toEqual([3, 4]);
    catchUp.run();
    await catchUp.settled();
    expect(await dueRows(id)).toEqual([]);
  });
});
