/**
 * A batch of row outcomes written on a real console database (SQLite, or PostgreSQL in the
 * PostgreSQL pass): rows, directory and audit log together; the rows kept when the directory
 * refuses its part; and what the directory learns from each kind of row.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { migrateAuditLog } from '@/lib/audit/schema';
import { testClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { findDirectoryEntry } from '@/lib/directory/store';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { readGetOrCreateCsv } from './csv';
import { createGetOrCreateJob } from './drafts';
import { jobResultRows } from './result-rows';
import { jobsDb, migrateJobs } from './schema';
import { createTokenVault } from './vault';
import {
  type DoneRow,
  directoryChangeOf,
  type RowOutcome,
  type WriteOutcomesOptions,
  writeOutcomes,
} from './write-outcomes';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

const vault = createTokenVault(randomBytes(32));
const owner = { id: 'op-1', email: 'ann@example.com' };
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('jobs-write-outcomes');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  await migrateJobs(database);
});
afterAll(async () => {
  await database.dispose();
});

/** A draft get-or-create job of this CSV, in Testing; answers its id. */
async function draftJob(csv: string): Promise<string> {
  const reading = readGetOrCreateCsv(csv);
  if (!reading.ok) throw new Error(reading.message);
  return createGetOrCreateJob(database.db, {
    environment: 'Testing',
    source: 'x.csv',
    owner,
    ...reading,
    clock,
  });
}

/** A job of two get-or-create rows and their outcomes: the first made anew, the second refused. */
async function jobWithOutcomes(prefix: string) {
  const id = await draftJob(`user_group_id,name,mapping\n${prefix}-0,Zero,"{""s"": 1}"\n${prefix}-1,One,`);
  const jobs = jobsDb(database.db);
  const job = await jobs.selectFrom('bulk_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rows = await jobs
    .selectFrom('bulk_job_row')
    .selectAll()
    .where('job_id', '=', id)
    .orderBy('row_number')
    .execute();
  const [first, second] = rows as [RowOutcome['row'], RowOutcome['row']];
  const token = `token-${prefix}`;
  const batch: RowOutcome[] = [
    {
      row: first,
      inputToken: null,
      outcome: {
        kind: 'done',
        group: { provided_id: `${prefix}-0`, name: 'Zero', team_id: 3, token, properties: { n: 0 } },
        isNew: true,
        previousToken: null,
      },
    },
    {
      row: second,
      inputToken: null,
      outcome: { kind: 'failed', code: 'upstream_invalid_request', message: 'bad' },
    },
  ];
  return { id, job, batch, token };
}

const write = (
  job: Awaited<ReturnType<typeof jobWithOutcomes>>['job'],
  batch: RowOutcome[],
  log: WriteOutcomesOptions['log'] = () => {},
) =>
  jobsDb(database.db)
    .transaction()
    .execute((trx) => writeOutcomes(trx, { job, batch, vault, log, now: new Date(Date.UTC(2030, 0, 1)) }));

describe('jobResultRows', () => {
  it('accounts for every line of the file: the rows the preview refused come with what is wrong', async () => {
    const id = await draftJob('user_group_id,name\nfine-0,Fine\n,No id\nfine-2,Also fine\n');
    const rows = await jobResultRows(database.db, id, null);
    expect(rows.map((row) => [row.line, row.status])).toEqual([
      [2, 'pending'],
      [3, 'invalid'],
      [4, 'pending'],
    ]);
    expect(rows[1]?.error).toMatch(/user_group_id/);
  });
});

describe('writeOutcomes', () => {
  it('writes the rows, the directory and an audit entry each, in one transaction', async () => {
    const { id, job, batch, token } = await jobWithOutcomes('written');
    expect(await write(job, batch)).toBe(true);
    const [done, failed] = await jobResultRows(database.db, id, vault);
    expect(done).toMatchObject({ status: 'done', token, name: 'Zero', teamId: 3, newUserGroup: true });
    expect(failed).toMatchObject({ status: 'failed', error: 'bad' });
    expect(await findDirectoryEntry(database.db, 'Testing', 'written-0')).toMatchObject({
      name: 'Zero',
      mapping: { s: 1 },
      properties: { n: 0 },
      createdBy: owner.email,
      tokenFingerprint: tokenFingerprint(token),
    });
    const audited = await database.db
      .selectFrom('audit_event')
      .select(['action', 'outcome', 'user_group_id', 'token_fingerprint'])
      .where('request_id', '=', id)
      .orderBy('user_group_id')
      .execute();
    expect(audited).toEqual([
      {
        action: 'get-or-create',
        outcome: 'success',
        user_group_id: 'written-0',
        token_fingerprint: tokenFingerprint(token),
      },
      {
        action: 'get-or-create',
        outcome: 'upstream_invalid_request',
        user_group_id: 'written-1',
        token_fingerprint: null,
      },
    ]);
  });

  it('keeps the rows when the directory refuses its part, marked for the catch-up, and says so', async () => {
    const { id, job, batch, token } = await jobWithOutcomes('refused');
    const logged: string[] = [];
    const written = await whileInsertsFail(database, 'directory_entry', () =>
      write(job, batch, (_level, _fields, message) => logged.push(message)),
    );
    expect(written).toBe(false);
    expect(logged).toEqual(['could not update the directory']);
    expect((await jobResultRows(database.db, id, vault))[0]).toMatchObject({ status: 'done', token });
    expect(await findDirectoryEntry(database.db, 'Testing', 'refused-0')).toBeNull();
    const due = await jobsDb(database.db)
      .selectFrom('bulk_job_row')
      .select('row_number')
      .where('job_id', '=', id)
      .where('status', '=', 'done')
      .where('directory_at', 'is', null)
      .execute();
    expect(due).toEqual([{ row_number: 1 }]);
  });
});

describe('directoryChangeOf', () => {
  const done: DoneRow = {
    environment: 'Testing',
    kind: 'rotate',
    created_by: owner.email,
    user_group_id: 'g-1',
    mapping: null,
    result_name: 'G',
    result_team_id: 1,
    result_fingerprint: 'abc',
    result_properties: null,
    new_user_group: null,
    finished_at: '2026-11-24T10:00:00.000Z',
  };

  it('records a rotation job’s row as a rotation, unless get-or-create made its group anew', () => {
    expect(directoryChangeOf(done)).toMatchObject({
      kind: 'rotate',
      at: new Date(done.finished_at as string),
    });
    // Read back after an interruption: still the rotation it was.
    expect(directoryChangeOf({ ...done, new_user_group: 0 })).toMatchObject({ kind: 'rotate' });
    expect(directoryChangeOf({ ...done, new_user_group: 1 })).toMatchObject({
      kind: 'get-or-create',
      isNew: true,
    });
  });

  it('records a get-or-create with the mapping sent and the properties answered, none as null', () => {
    const row = { ...done, kind: 'get-or-create' as const, mapping: '{"s":1}', new_user_group: 0 };
    expect(directoryChangeOf(row)).toEqual({
      kind: 'get-or-create',
      environment: 'Testing',
      operatorEmail: owner.email,
      at: new Date(done.finished_at as string),
      isNew: false,
      mappingSent: { s: 1 },
      group: { provided_id: 'g-1', name: 'G', team_id: 1, tokenFingerprint: 'abc', properties: null },
    });
    expect(directoryChangeOf({ ...row, result_properties: '{"n":1}' }).group.properties).toEqual({ n: 1 });
  });
});
