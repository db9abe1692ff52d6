import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { recordDeletion, recordGetOrCreate, recordRotation } from '@/lib/directory/store';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createRotateJob } from './drafts';
import { rotationPreview, rotationPreviewToCsv } from './rotation-preview';
import { jobsDb, migrateJobs } from './schema';
import { readTokenList, readUserGroupIds } from './token-list';
import { createTokenVault } from './vault';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

const owner = { id: 'op-1', email: 'ann@example.com' };
const vault = createTokenVault(randomBytes(32));
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const known = 'a'.repeat(64);
const unknown = 'b'.repeat(64);
/** initech's token before its rotation, and hooli's before its group was deleted. */
const replaced = 'd'.repeat(64);
const ofDeleted = 'f'.repeat(64);

beforeAll(async () => {
  database = await openTestConsoleDatabase('rotation-preview');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  await migrateJobs(database);
  for (const [id, name, token] of [
    ['acme', 'Acme Inc.', known],
    ['=globex', 'Globex', 'c'.repeat(64)],
    ['initech', 'Initech', replaced],
    ['hooli', 'Hooli', ofDeleted],
  ] as const)
    await recordGetOrCreate(
      database.db,
      {
        environment: 'Testing',
        operatorEmail: owner.email,
        isNew: true,
        group: { provided_id: id, name, team_id: 1, token },
        mappingSent: undefined,
      },
      clock,
    );
  // As the console's routes leave them: on record, then in the directory.
  const change = { operator: owner, outcome: 'success', requestId: 'r', environment: 'Testing' as const };
  await recordAuditEvent(
    database.db,
    {
      ...change,
      action: 'rotate',
      userGroupId: 'initech',
      token: 'e'.repeat(64),
      previousToken: replaced,
    },
    clock,
  );
  await recordRotation(
    database.db,
    {
      environment: 'Testing',
      operatorEmail: owner.email,
      group: { provided_id: 'initech', name: 'Initech', team_id: 1, token: 'e'.repeat(64) },
    },
    clock,
  );
  await recordAuditEvent(
    database.db,
    {
      ...change,
      action: 'delete',
      userGroupId: 'hooli',
      previousToken: ofDeleted,
    },
    clock,
  );
  await recordDeletion(
    database.db,
    {
      environment: 'Testing',
      operatorEmail: owner.email,
      userGroupId: 'hooli',
    },
    clock,
  );
});
afterAll(async () => {
  await database?.dispose();
});

describe('rotationPreview', () => {
  it('names the group behind each pasted token by its fingerprint, or says it is not known (when sent on purpose)', async () => {
    const reading = readTokenList(`token\n${known}\nnot-a-known-token\n${unknown}\n`);
    if (!reading.ok) throw new Error(reading.message);
    const id = await createRotateJob(database.db, vault, {
      environment: 'Testing',
      source: 'pasted tokens',
      owner,
      rows: reading.rows,
      invalid: [{ line: 9, userGroupId: null, problems: ['bad'] }],
      sendUnknown: true,
      clock,
    });
    const preview = await rotationPreview(database.db, vault, { id, environment: 'Testing' }, 1);
    expect(preview).toEqual({
      total: 3,
      rows: [{ line: 2, userGroupId: 'acme', name: 'Acme Inc.', tokenFingerprint: tokenFingerprint(known) }],
    });
    const all = await rotationPreview(database.db, vault, { id, environment: 'Testing' });
    expect(all.rows.map((row) => [row.userGroupId, row.tokenFingerprint])).toEqual([
      ['acme', tokenFingerprint(known)],
      [null, tokenFingerprint('not-a-known-token')],
      [null, tokenFingerprint(unknown)],
    ]);
    const csv = rotationPreviewToCsv(all.rows);
    expect(csv).not.toContain(known);
    expect(csv).not.toContain(unknown);
    expect(parse(csv, { columns: true })).toEqual([
      {
        line: '2',
        user_group_id: 'acme',
        name: 'Acme Inc.',
        token_fingerprint: tokenFingerprint(known),
        note: '',
      },
      {
        line: '3',
        user_group_id: '',
        name: '',
        token_fingerprint: tokenFingerprint('not-a-known-token'),
        note: 'not known to the console',
      },
      {
        line: '4',
        user_group_id: '',
        name: '',
        token_fingerprint: tokenFingerprint(unknown),
        note: 'not known to the console',
      },
    ]);
  });

  it('for groups chosen by id: their names and the fingerprints of the tokens the directory last saw', async () => {
    const reading = readUserGroupIds(['=globex', 'acme', 'gone']);
    if (!reading.ok) throw new Error(reading.message);
    const id = await createRotateJob(database.db, vault, {
      environment: 'Testing',
      source: '3 groups',
      owner,
      rows: reading.rows,
      invalid: [],
      clock,
    });
    const preview = await rotationPreview(database.db, vault, { id, environment: 'Testing' });
    expect(preview.rows).toEqual([
      { line: 1, userGroupId: '=globex', name: 'Globex', tokenFingerprint: tokenFingerprint('c'.repeat(64)) },
      { line: 2, userGroupId: 'acme', name: 'Acme Inc.', tokenFingerprint: tokenFingerprint(known) },
    ]);
    // A spreadsheet does not run an id as a formula.
    expect(rotationPreviewToCsv(preview.rows)).toContain("'=globex");
  });

  it('runs only current tokens: replaced, deleted and unknown ones are rows with a problem that says so', async () => {
    const reading = readTokenList([known, replaced, ofDeleted, unknown].join('\n'));
    if (!reading.ok) throw new Error(reading.message);
    const draft = (sendUnknown: boolean) =>
      createRotateJob(database.db, vault, {
        environment: 'Testing',
        source: 'pasted tokens',
        owner,
        rows: reading.rows,
        invalid: [],
        sendUnknown,
        clock,
      });
    const refused = async (id: string) =>
      (
        await jobsDb(database.db)
          .selectFrom('bulk_job_row')
          .select(['source_line', 'user_group_id', 'error'])
          .where('job_id', '=', id)
          .where('status', '=', 'invalid')
          .orderBy('source_line')
          .execute()
      ).map((row) => [row.source_line, row.user_group_id, row.error]);
    const id = await draft(false);
    const preview = await rotationPreview(database.db, vault, { id, environment: 'Testing' });
    expect(preview.rows.map((row) => row.userGroupId)).toEqual(['acme']);
    expect(preview.total).toBe(1);
    expect(await refused(id)).toEqual([
      [2, 'initech', expect.stringMatching(/^Replaced: /)],
      [3, 'hooli', expect.stringMatching(/^Deleted: /)],
      [4, null, expect.stringMatching(/^Unknown: .*Also send tokens this console has never seen/)],
    ]);
    // Sent on purpose, an unknown token is in the run; a replaced or deleted one never is.
    const sending = await draft(true);
    expect((await rotationPreview(database.db, vault, { id: sending, environment: 'Testing' })).rows).toEqual(
      [
        expect.objectContaining({ line: 1, userGroupId: 'acme' }),
        expect.objectContaining({ line: 4, userGroupId: null, tokenFingerprint: tokenFingerprint(unknown) }),
      ],
    );
    expect((await refused(sending)).map(([line]) => line)).toEqual([2, 3]);
  });

  it('refuses a group chosen by id that is deleted or unknown: rotating it would create it', async () => {
    const reading = readUserGroupIds(['acme', 'hooli', 'gone']);
    if (!reading.ok) throw new Error(reading.message);
    const id = await createRotateJob(database.db, vault, {
      environment: 'Testing',
      source: '3 groups',
      owner,
      rows: reading.rows,
      invalid: [],
      clock,
    });
    const preview = await rotationPreview(database.db, vault, { id, environment: 'Testing' });
    expect(preview.rows.map((row) => row.userGroupId)).toEqual(['acme']);
    const rows = await jobsDb(database.db)
      .selectFrom('bulk_job_row')
      .select(['user_group_id', 'error'])
      .where('job_id', '=', id)
      .where('status', '=', 'invalid')
      .orderBy('source_line')
      .execute();
    expect(rows).toEqual([
      { user_group_id: 'hooli', error: expect.stringMatching(/^Deleted: .*create it anew/) },
      { user_group_id: 'gone', error: expect.stringMatching(/^Unknown: .*create one/) },
    ]);
  });
});
