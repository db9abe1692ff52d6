import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvents } from '@/lib/audit/store';
import { openAuditStream } from '@/lib/audit-stream/delivery';
import { realClock } from '@/lib/clock';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { createTestDatabaseLocation, type TestDatabaseLocation } from '@/lib/testing/console-test-database';
import { fileCheckpoint } from './anchor';
import { migrateAuditChain } from './schema';
import { sealAll } from './sealer';
import { auditSigningKey } from './signing-key';

// `npm run audit -- verify` as an operator runs it (compiled, on the database the environment
// names: DATA_DIR's SQLite file, or DATABASE_URL in the PostgreSQL pass).
const run = promisify(execFile);
const key = randomBytes(32).toString('hex');
let location: TestDatabaseLocation;
let database: ConsoleDatabase;

beforeAll(async () => {
  location = await createTestDatabaseLocation('audit-cli');
  database = openConsoleDatabase(location.location);
  await migrateAuditLog(database);
  await migrateAuditChain(database);
  const entry = (index: number): AuditEntry => ({
    action: 'delete',
    operator: { id: 'op-ann', email: 'ann@example.com' },
    environment: 'Customer',
    userGroupId: `group-${index}`,
    outcome: 'success',
    requestId: `request-${index}`,
    at: new Date(realClock.now() - 60_000),
  });
  await recordAuditEvents(
    database.db,
    Array.from({ length: 40 }, (_, index) => entry(index)),
    realClock,
  );
  await sealAll({
    db: database.db,
    signer: auditSigningKey(location.env.DATA_DIR ?? '', key),
    clock: realClock,
    // The console's checkpoint, in DATA_DIR: the default anchor of `verify`.
    checkpoint: fileCheckpoint(location.env.DATA_DIR ?? ''),
    batchSize: 15,
  });
});
afterAll(async () => {
  await database?.close();
  await location?.dispose();
});

async function audit(args: string[], withKey = true) {
  // The test's own database only: not one the environment of the test run may name.
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const env = { ...inherited, ...location.env, ...(withKey ? { AUDIT_SIGNING_KEY: key } : {}) };
  return await run('npm', ['run', '--silent', 'audit', '--', ...args], { env }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

const verify = (...args: string[]) => audit(['verify', ...args]);

describe('npm run audit -- verify', () => {
  it('verifies with the public key alone, where the signing key is not', async () => {
    const publicKey = path.join(location.env.DATA_DIR ?? '', 'audit-public.pem');
    writeFileSync(publicKey, (await audit(['public-key'])).stdout);
    const verified = await audit(['verify', '--public-key', publicKey], false);
    expect(verified).toMatchObject({ code: 0 });
    expect(verified.stdout).toContain('The audit chain verifies');
    // Without either key there is nothing to check the seals with: said, and no key is made.
    const keyless = await audit(['verify'], false);
    expect(keyless.code).toBe(2);
    expect(existsSync(path.join(location.env.DATA_DIR ?? '', 'audit-signing.key'))).toBe(false);
  }, 180_000);

  it('exits 0 on an untouched log and 1 naming the first entry deleted directly in the database', async () => {
    const clean = await verify();
    expect(clean.stdout).toContain('The audit chain verifies: 40 entries (ids 1 to 40) in 3 seals');
    expect(clean.code).toBe(0);

    await sql`delete from audit_event where id = 17`.execute(database.db);
    await sql`update audit_event set outcome = 'failed' where id = 33`.execute(database.db);
    const tampered = await verify();
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(
      'The audit log was tampered with: entry 17 was removed (2 problems in all).',
    );

    const json = JSON.parse((await verify('--json')).stdout);
    expect(json.firstProblem).toMatchObject({ kind: 'removed', entryId: 17 });
  }, 180_000);
});

describe('exit codes, one meaning each', () => {
  it('exits 64 on a bad option or an unreadable anchor', async () => {
    expect((await verify('--no-such-option')).code).toBe(64);
    expect((await verify('--anchor', '/nonexistent/anchor.json')).code).toBe(64);
  }, 180_000);

  it("exits 1 when the seals end short of the checkpoint or of the SIEM's last seal", async () => {
    const newest = await database.db
      .selectFrom('audit_seal')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    // The seal as the stream delivered it (lib/audit-stream/outbox.ts), as the SIEM keeps it.
    const siemCopy = path.join(location.env.DATA_DIR ?? '', 'siem-last-seal.json');
    writeFileSync(
      siemCopy,
      JSON.stringify({ kind: 'audit.seal', ...newest, manifest: JSON.parse(newest.manifest) }),
    );
    await sql`delete from audit_seal where id = ${newest.id}`.execute(database.db);
    const problems = async (...args: string[]) =>
      JSON.parse((await verify('--json', ...args)).stdout).problems;
    const unanchored = await problems('--anchor', 'none');
    expect(await problems()).toBe(unanchored + 1);
    expect(await problems('--anchor', siemCopy)).toBe(unanchored + 1);
    const text = await verify('--anchor', siemCopy);
    expect(text.code).toBe(1);
  }, 180_000);

  it('switches the stream off only when told to, on record', async () => {
    await openAuditStream(database.db);
    await recordAuditEvents(
      database.db,
      [{ action: 'rotate', operator: null, outcome: 'success', requestId: 'r' }],
      realClock,
    );
    const off = await audit(['stream-off']);
    expect(off).toMatchObject({ code: 0 });
    // The entry written, and stream-off's own entry (on record, and so in the outbox, before it ran).
    expect(off.stdout).toContain('The stream is off: 2 undelivered rows dropped.');
    expect(await database.db.selectFrom('audit_stream').select('name').execute()).toEqual([]);
    expect(await database.db.selectFrom('audit_outbox').select('id').execute()).toEqual([]);
    const entry = await database.db
      .selectFrom('audit_event')
      .selectAll()
      .where('action', '=', 'audit.stream-off')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ outcome: 'success' });
  }, 180_000);

  it('exits 3, not 2, when the audit tables cannot be read', async () => {
    await sql`drop table audit_seal`.execute(database.db);
    const dropped = await verify();
    expect(dropped.code).toBe(3);
  }, 180_000);
});
