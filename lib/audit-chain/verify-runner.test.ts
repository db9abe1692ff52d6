import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvents } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { createTestDatabaseLocation, type TestDatabaseLocation } from '@/lib/testing/console-test-database';
import { fileCheckpoint } from './anchor';
import type { ChainReport } from './contract';
import { migrateAuditChain } from './schema';
import { sealAll } from './sealer';
import { auditSigningKey } from './signing-key';
import type { VerifiedPoint } from './verify';
import { createVerifyRunner, type Verified, verifyInChild } from './verify-runner';

const report = (over: Partial<ChainReport> = {}): ChainReport => ({
  ok: true,
  seals: 1,
  entries: 1,
  firstSeal: 1,
  verifiedFrom: 1,
  verifiedThrough: 1,
  unsealed: 0,
  pendingSettlements: 0,
  problems: 0,
  firstProblem: null,
  keyId: 'k',
  anchorSeal: null,
  sinceSeal: null,
  sealing: null,
  ...over,
});
const point = (id: number): VerifiedPoint => ({
  seal: { id, through_id: id * 10, head_hash: `h${id}` },
  expectations: [],
});

describe("the console's Verify", () => {
  it('runs one at a time: a second press joins the one running; the next carries on from its seal', async () => {
    const calls: Array<VerifiedPoint | null> = [];
    let finish: (verified: Verified) => void = () => {};
    const runner = createVerifyRunner({
      run: (from) => {
        calls.push(from);
        return new Promise((resolve) => {
          finish = resolve;
        });
      },
      sealing: () => null,
    });
    const first = runner.verify();
    const second = runner.verify();
    expect(second).toBe(first);
    expect(calls).toEqual([null]);
    finish({ report: report(), point: point(3) });
    expect(await second).toMatchObject({ ok: true });

    const third = runner.verify();
    expect(calls).toEqual([null, point(3)]);
    // Tampering found: the point stays, so the next press reports it again.
    finish({ report: report({ ok: false, problems: 1 }), point: null });
    expect(await third).toMatchObject({ ok: false });
    void runner.verify();
    expect(calls.at(-1)).toEqual(point(3));
    finish({ report: report(), point: point(4) });
  });

  it("answers the sealer's refusal with every report", async () => {
    const runner = createVerifyRunner({
      run: async () => ({ report: report(), point: point(1) }),
      sealing: () => 'seal 3 (the anchor) is missing',
    });
    expect(await runner.verify()).toMatchObject({ ok: false, sealing: 'seal 3 (the anchor) is missing' });
  });
});

describe('verifying in a child process', () => {
  let location: TestDatabaseLocation;
  let database: ConsoleDatabase;
  afterAll(async () => {
    await database?.close();
    await location?.dispose();
  });

  it('verifies off the server, against the checkpoint, from the last verified seal on', async () => {
    const clock = testClock();
    const key = randomBytes(32).toString('hex');
    location = await createTestDatabaseLocation('audit-verify-child');
    database = openConsoleDatabase(location.location);
    await migrateAuditLog(database);
    await migrateAuditChain(database);
    const entry = (index: number): AuditEntry => ({
      action: 'rotate',
      operator: { id: 'op-ann', email: 'ann@example.com' },
      outcome: 'success',
      requestId: `request-${index}`,
      at: new Date(clock.now() - 60_000),
    });
    const dataDir = location.env.DATA_DIR ?? '';
    const checkpoint = fileCheckpoint(dataDir);
    const signer = auditSigningKey(dataDir, key);
    const seal = () => sealAll({ db: database.db, signer, clock, checkpoint, batchSize: 5 });
    await recordAuditEvents(
      database.db,
      Array.from({ length: 12 }, (_, index) => entry(index)),
      clock,
    );
    await seal();
    const { DATABASE_URL: _unused, ...inherited } = process.env;
    const env = { ...inherited, ...location.env, AUDIT_SIGNING_KEY: key };
    const command = ['--import', 'tsx', 'lib/audit-chain/cli.ts'];
    const run = (from: VerifiedPoint | null) =>
      verifyInChild({ anchorFile: checkpoint.file, from, command, env });

    const full = await run(null);
    expect(full.report).toMatchObject({ ok: true, seals: 3, entries: 12, anchorSeal: 3 });
    await recordAuditEvents(database.db, [entry(12)], clock);
    await seal();
    const since = await run(full.point);
    expect(since.report).toMatchObject({ ok: true, seals: 1, entries: 1, sinceSeal: 3, anchorSeal: 4 });

    await sql`delete from audit_seal where id = 4`.execute(database.db);
    expect((await run(since.point)).report).toMatchObject({
      ok: false,
      firstProblem: { kind: 'seal', sealId: 4 },
    });
  }, 60_000);
});
