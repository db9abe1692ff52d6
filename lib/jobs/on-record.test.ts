/**
 * The job runner's one writer of the audit log, on a real console database (SQLite, or PostgreSQL
 * in the PostgreSQL pass): a batch's entries fail the batch when they cannot be written, and say so
 * in the log by the error's name only; a job's entry settled as it ends, or the failure logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { jobRecord } from './on-record';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;

beforeAll(async () => {
  database = await openTestConsoleDatabase('jobs-on-record');
  await migrateAuditLog(database);
});
afterAll(async () => {
  await database.dispose();
});

const entry = (jobId: string, userGroupId: string): AuditEntry => ({
  action: 'get-or-create',
  operator: { id: 'op-1', email: 'ann@example.com' },
  outcome: 'success',
  requestId: jobId,
  environment: 'Testing',
  userGroupId,
  at: new Date('2026-11-27T12:00:00Z'),
});

const entriesOf = (jobId: string) =>
  database.db
    .selectFrom('audit_event')
    .select(['id', 'outcome', 'user_group_id'])
    .where('request_id', '=', jobId)
    .orderBy('id')
    .execute();

type Logged = { level: string; fields: Record<string, unknown>; message: string };
const logInto = (logged: Logged[]) => (level: string, fields: Record<string, unknown>, message: string) =>
  void logged.push({ level, fields, message });

describe('the job runner on record', () => {
  it('writes a batch of row entries, all of them', async () => {
    const logged: Logged[] = [];
    await jobRecord(database.db, 'job-rows', logInto(logged), clock).rows([
      entry('job-rows', 'a'),
      entry('job-rows', 'b'),
    ]);
    expect((await entriesOf('job-rows')).map((row) => row.user_group_id)).toEqual(['a', 'b']);
    expect(logged).toEqual([]);
  });

  it('fails the batch when its entries cannot be written, and logs the error by name only', async () => {
    const logged: Logged[] = [];
    const record = jobRecord(database.db, 'job-refused', logInto(logged), clock);
    await expect(
      whileInsertsFail(database, 'audit_event', () => record.rows([entry('job-refused', 'a')])),
    ).rejects.toThrow();
    expect(await entriesOf('job-refused')).toEqual([]);
    expect(logged).toEqual([
      {
        level: 'error',
        fields: { jobId: 'job-refused', requestId: 'job-refused', err: { name: expect.any(String) } },
        message: 'could not write the audit log',
      },
    ]);
  });

  it("settles the job's own entry as the job ends", async () => {
    const id = await recordAuditEvent(database.db, { ...entry('job-ended', 'x'), outcome: 'started' }, clock);
    await jobRecord(database.db, 'job-ended', logInto([]), clock).ended(id, { outcome: 'failed_rows' });
    expect(await entriesOf('job-ended')).toEqual([{ id, outcome: 'failed_rows', user_group_id: 'x' }]);
  });

  it('logs a settlement that cannot be written rather than throwing: the job has ended by then', async () => {
    const logged: Logged[] = [];
    const closed = {
      isTransaction: false,
      transaction: () => ({ execute: () => Promise.reject(new TypeError('closed')) }),
    } as unknown as ConsoleDb;
    await jobRecord(closed, 'job-closed', logInto(logged), clock).ended(1, { outcome: 'success' });
    expect(logged).toEqual([
      {
        level: 'error',
        fields: { jobId: 'job-closed', requestId: 'job-closed', err: { name: 'TypeError' } },
        message: 'could not complete an audit entry',
      },
    ]);
  });
});
