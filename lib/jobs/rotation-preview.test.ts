import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { migrateAuditLog } from '@/lib/audit/schema';
import { migrateDirectory } from '@/lib/directory/schema';
import { recordGetOrCreate } from '@/lib/directory/store';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createRotateJob } from './drafts';
import { rotationPreview, rotationPreviewToCsv } from './rotation-preview';
import { migrateJobs } from './schema';
import { readTokenList, readUserGroupIds } from './token-list';
import { createTokenVault } from './vault';

const owner = { id: 'op-1', email: 'ann@example.com' };
const vault = createTokenVault(randomBytes(32));
let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const known = 'a'.repeat(64);
const unknown = 'b'.repeat(64);

beforeAll(async () => {
  database = await openTestConsoleDatabase('rotation-preview');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  await migrateJobs(database);
  for (const [id, name, token] of [
    ['acme', 'Acme Inc.', known],
    ['=globex', 'Globex', 'c'.repeat(64)],
  ] as const)
    await recordGetOrCreate(database.db, {
      environment: 'Testing',
      operatorEmail: owner.email,
      isNew: true,
      group: { provided_id: id, name, team_id: 1, token },
      mappingSent: undefined,
    });
});
afterAll(async () => {
  await database?.dispose();
});

describe('rotationPreview', () => {
  it('names the group behind each pasted token by its fingerprint, or says it is not known', async () => {
    const reading = readTokenList(`token\n${known}\nnot-a-known-token\n${unknown}\n`);
    if (!reading.ok) throw new Error(reading.message);
    const id = await createRotateJob(database.db, vault, {
      environment: 'Testing',
      source: 'pasted tokens',
      owner,
      rows: reading.rows,
      invalid: [{ line: 9, userGroupId: null, problems: ['bad'] }],
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
    });
    const preview = await rotationPreview(database.db, vault, { id, environment: 'Testing' });
    expect(preview.rows).toEqual([
      { line: 1, userGroupId: '=globex', name: 'Globex', tokenFingerprint: tokenFingerprint('c'.repeat(64)) },
      { line: 2, userGroupId: 'acme', name: 'Acme Inc.', tokenFingerprint: tokenFingerprint(known) },
      { line: 3, userGroupId: 'gone', name: null, tokenFingerprint: null },
    ]);
    // A spreadsheet does not run an id as a formula.
    expect(rotationPreviewToCsv(preview.rows)).toContain("'=globex");
  });
});
