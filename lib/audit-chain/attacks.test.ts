import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvent, recordAuditEvents, settleAuditEvent } from '@/lib/audit/store';
import { openAuditStream } from '@/lib/audit-stream/delivery';
import { enqueueSeal } from '@/lib/audit-stream/outbox';
import { testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { memoryCheckpoint } from './anchor';
import { describeChainReport } from './contract';
import { chainHash, contentHash, GENESIS, legacyFixedHash, manifestHash } from './links';
import { migrateAuditChain } from './schema';
import { SealRefused, sealAll } from './sealer';
import { type SealingState, startAuditSealer } from './sealing-loop';
import { auditSigningKey } from './signing-key';
import { verifyAuditChain, verifyAuditChainFrom } from './verify';

// The attacker of the README's threat model: writes the console's database (SQL, on SQLite or, in
// the PostgreSQL pass, PostgreSQL), holds no signing key. Each finding of issue 41 as an attack.
const clock = testClock(Date.UTC(2030, 0, 1, 12));
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));
const opened: Array<{ dispose(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.dispose()));
});

const entry = (
  index: number,
  outcome = 'success',
  userGroupId: string | null = `group-${index}`,
): AuditEntry => ({
  action: 'bulk.rotate',
  operator: { id: 'op-ann', email: 'ann@example.com' },
  environment: 'Customer',
  userGroupId,
  outcome,
  requestId: `request-${index}`,
  at: new Date(clock.now() - 60_000),
});

/** A console's view: its database, and the checkpoint it keeps outside it. */
async function consoleLog(count: number, { prunes }: { prunes?: boolean } = {}) {
  const database = await openTestConsoleDatabase('audit-attack');
  opened.push(database);
  await migrateAuditLog(database);
  await migrateAuditChain(database);
  await recordAuditEvents(
    database.db,
    Array.from({ length: count }, (_, index) => entry(index + 1)),
    clock,
  );
  const checkpoint = memoryCheckpoint();
  const tampered: string[] = [];
  const seal = () =>
    sealAll({
      db: database.db,
      signer,
      clock,
      checkpoint,
      batchSize: 10,
      prunes,
      onTampered: (message) => tampered.push(message),
    });
  const verify = () => verifyAuditChain(database.db, signer, { anchor: checkpoint.current() });
  return { database, db: database.db, seal, verify, checkpoint, tampered };
}

describe('an attacker who writes the database but holds no key', () => {
  it('deletes the newest seal and edits an entry it covered: the sealer refuses, verify fails', async () => {
    const { db, seal, verify } = await consoleLog(25);
    expect(await seal()).toBe(3);
    await sql`delete from audit_seal where id = 3`.execute(db);
    await sql`update audit_event set operator_email = 'mallory@example.com' where id = 23`.execute(db);

    await expect(seal()).rejects.toThrow(SealRefused);
    await expect(seal()).rejects.toThrow(/seal 3 \(the anchor\) is missing/);
    expect(await db.selectFrom('audit_seal').select('id').execute()).toHaveLength(2);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.firstProblem).toMatchObject({ kind: 'seal', sealId: 3 });
    expect(report.firstProblem?.message).toMatch(/short of the anchor \(seal 3\)/);
  });

  it('deletes every seal and the working set, edits entry 1: refused, and never "Nothing is sealed yet"', async () => {
    const { db, seal, verify } = await consoleLog(12);
    await recordAuditEvent(db, entry(13, 'started'), clock);
    expect(await seal()).toBe(2);
    await sql`delete from audit_seal`.execute(db);
    await sql`delete from audit_chain_open`.execute(db);
    await sql`update audit_event set detail = 'rewritten' where id = 1`.execute(db);

    await expect(seal()).rejects.toThrow(/the database holds no seal/);
    expect(await db.selectFrom('audit_seal').select('id').execute()).toEqual([]);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(describeChainReport(report)).not.toContain('Nothing is sealed yet');
    expect(describeChainReport(report)).toContain('short of the anchor (seal 2)');
  });

  it('rolls the database back to an older state that verifies on its own: the anchor tells', async () => {
    const { db, seal, verify, checkpoint } = await consoleLog(10);
    await seal();
    const older = checkpoint.current();
    await recordAuditEvents(db, [entry(11), entry(12)], clock);
    await seal();
    // Back to the state of the first seal: its entries and seals alone, consistent by themselves.
    await sql`delete from audit_event where id > 10`.execute(db);
    await sql`delete from audit_seal where id > ${older?.id ?? 0}`.execute(db);
    expect((await verifyAuditChain(db, signer)).ok).toBe(true);
    expect((await verify()).ok).toBe(false);
    await expect(seal()).rejects.toThrow(SealRefused);
  });

  it('is no attack: a checkpoint whose seal retention pruned while the console was away', async () => {
    const { db, seal, checkpoint } = await consoleLog(20);
    await seal();
    expect(checkpoint.current()?.id).toBe(2);
    // Another console seals on; then seals 1 and 2 go with their batches, as retention prunes them.
    await recordAuditEvents(db, [entry(21), entry(22)], clock);
    await sealAll({ db, signer, clock });
    await sql`delete from audit_event where id <= 20`.execute(db);
    await sql`delete from audit_seal where id <= 2`.execute(db);
    await recordAuditEvents(db, [entry(23)], clock);
    expect(await seal()).toBe(1);
    expect(checkpoint.current()?.id).toBe(4);
  });

  it('rewrites a seal it cannot sign: the sealer will not continue from it', async () => {
    const { db, seal } = await consoleLog(10);
    await seal();
    await sql`update audit_seal set head_hash = 'forged'`.execute(db);
    await expect(seal()).rejects.toThrow(/differs from the anchor/);
  });

  it.each([
    { field: 'operator', change: sql`operator_email = 'mallory@example.com', operator_id = 'op-mallory'` },
    { field: 'time', change: sql`at = '2029-12-01T00:00:00.000Z'` },
    { field: 'group given at start', change: sql`user_group_id = 'group-other'` },
    { field: 'request id', change: sql`request_id = 'request-forged'` },
  ])(
    'changes the $field of an entry sealed while started: not sealed as a settlement, verify fails',
    async ({ change }) => {
      const { db, seal, verify, tampered } = await consoleLog(2);
      const job = await recordAuditEvent(db, entry(3, 'started'), clock);
      await seal();
      await sql`update audit_event set ${change} where id = ${job}`.execute(db);
      // Still started, or settled at once: either way no settlement may take the change in.
      await seal();
      expect(tampered).toEqual([expect.stringContaining(`entry ${job}, sealed while started`)]);
      expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: job });
      await sql`update audit_event set outcome = 'success' where id = ${job}`.execute(db);
      await seal();
      expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: job });
    },
  );

  it('leaves a settlement that fills what it learned to verify: outcome, group, token, detail', async () => {
    const { db, seal, verify, tampered } = await consoleLog(2);
    const job = await recordAuditEvent(db, entry(3, 'started', null), clock);
    await seal();
    await settleAuditEvent(
      db,
      job,
      {
        outcome: 'success',
        userGroupId: 'group-found',
        userGroupName: 'Found',
        token: 'a-new-token',
        detail: '1 row',
      },
      clock,
    );
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 1 });
    expect(await seal()).toBe(1);
    expect(tampered).toEqual([]);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });
  });
});

/** The seal that holds entry `id`, and its manifest as stored. */
async function sealHolding(db: Awaited<ReturnType<typeof consoleLog>>['db'], id: number) {
  const seal = await db
    .selectFrom('audit_seal')
    .selectAll()
    .where('after_id', '<', id)
    .where('through_id', '>=', id)
    .executeTakeFirstOrThrow();
  return { seal, manifest: JSON.parse(seal.manifest) as { entries: unknown[][]; settlements: unknown[][] } };
}

// The security review of 2026-11-28 (/tmp/review): forgeries the console re-signed or let pass.
describe('a writer of the database forges what the console would sign', () => {
  it.each([
    { reopen: true, newest: false },
    { reopen: false, newest: false },
    { reopen: true, newest: true },
  ])(
    "turns a sealed entry's link into a legacy started link and rewrites the entry (reopened: $reopen, in the newest seal: $newest): never re-signed, verify names it",
    async ({ reopen, newest }) => {
      const { db, seal, verify, tampered } = await consoleLog(3);
      expect(await seal()).toBe(1);
      if (!newest) {
        await recordAuditEvents(db, [entry(4)], clock);
        expect(await seal()).toBe(1);
      }
      const row = await db
        .selectFrom('audit_event')
        .selectAll()
        .where('id', '=', 2)
        .executeTakeFirstOrThrow();
      const { seal: holding, manifest } = await sealHolding(db, 2);
      const index = manifest.entries.findIndex((link) => link[0] === 2);
      manifest.entries[index] = [2, manifest.entries[index]?.[1], contentHash(row), legacyFixedHash(row)];
      await sql`update audit_seal set manifest = ${JSON.stringify(manifest)} where id = ${holding.id}`.execute(
        db,
      );
      await sql`update audit_event set outcome = 'failure', detail = 'forged', user_group_id = 'grpB' where id = 2`.execute(
        db,
      );
      if (reopen)
        await sql`insert into audit_chain_open (event_id, content_hash) values (2, ${contentHash(row)})`.execute(
          db,
        );

      // The sealer works from the newest seal's signed list of open entries, never the working set;
      // it will not continue from a seal whose manifest is no longer as signed.
      if (newest) await expect(seal()).rejects.toThrow(/seal 1, the newest, does not read as signed/);
      else expect(await seal()).toBe(0);
      expect(tampered).toEqual([]);
      const report = await verify();
      expect(report).toMatchObject({ ok: false, pendingSettlements: 0 });
      expect(report.firstProblem).toMatchObject({ kind: 'changed', entryId: 2 });
    },
  );

  it('reopens an entry whose settlement is sealed and rewrites it: no second settlement, verify names it', async () => {
    const { db, seal, verify, tampered } = await consoleLog(2);
    const job = await recordAuditEvent(db, entry(3, 'started', null), clock);
    expect(await seal()).toBe(1);
    await settleAuditEvent(db, job, { outcome: 'success', userGroupId: 'grpA', detail: '1 row' }, clock);
    expect(await seal()).toBe(1);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });

    await sql`insert into audit_chain_open (event_id, content_hash) values (${job}, 'x')`.execute(db);
    await sql`update audit_event set outcome = 'failure', detail = 'forged', user_group_id = 'grpB' where id = ${job}`.execute(
      db,
    );
    // The sealer works from the signed list of open entries, which no longer holds it.
    expect(await seal()).toBe(0);
    expect(tampered).toEqual([]);
    const report = await verify();
    expect(report).toMatchObject({ ok: false, pendingSettlements: 0 });
    expect(report.firstProblem).toMatchObject({ kind: 'changed', entryId: job });
  });

  it('drops a started entry from the working set so that its settlement stays pending for good: sealed all the same', async () => {
    const { db, seal, verify } = await consoleLog(2);
    const job = await recordAuditEvent(db, entry(3, 'started', null), clock);
    expect(await seal()).toBe(1);
    await sql`delete from audit_chain_open where event_id = ${job}`.execute(db);
    await settleAuditEvent(db, job, { outcome: 'failure', detail: 'upstream refused' }, clock);
    expect(await seal()).toBe(1);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });
    // Sealed: the outcome is no longer the database writer's to choose.
    await sql`update audit_event set outcome = 'success', detail = null where id = ${job}`.execute(db);
    expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: job });
  });
});

describe('a writer of the database cuts the start of the chain', () => {
  it('deletes the oldest entries and the first seal with retention off: refused, verify names the seals', async () => {
    const { db, seal, verify } = await consoleLog(25, { prunes: false });
    expect(await seal()).toBe(3);
    await sql`delete from audit_event where id <= 10`.execute(db);
    await sql`delete from audit_seal where id = 1`.execute(db);
    const report = await verify();
    expect(report).toMatchObject({ ok: false, firstSeal: 2 });
    expect(report.firstProblem).toMatchObject({ kind: 'seal', sealId: 2 });
    expect(report.firstProblem?.message).toContain(
      'seals 1 to 1 were removed (entries up to 10): no seal records them pruned',
    );
    await recordAuditEvents(db, [entry(26)], clock);
    await expect(seal()).rejects.toThrow(/seals 1 to 1 were removed, and this console does not prune/);
  });

  it('is no attack: retention prunes, on record, and the next seal records it', async () => {
    const { db, seal, verify } = await consoleLog(25, { prunes: true });
    expect(await seal()).toBe(3);
    await sql`delete from audit_event where id <= 10`.execute(db);
    await sql`delete from audit_seal where id = 1`.execute(db);
    // Until a seal records it, only a pruning under way (its entry not sealed yet) explains it.
    await recordAuditEvent(db, { ...entry(26), action: 'audit.prune', userGroupId: null }, clock);
    expect(await verify()).toMatchObject({ ok: true, firstSeal: 2 });
    expect(await seal()).toBe(1);
    expect(await verify()).toMatchObject({ ok: true, firstSeal: 2 });
  });
});

describe('seals signed before the manifest was (v1)', () => {
  /** Seal 1 as a console before v2 wrote it: entry 1, and entry 2 `started` as a legacy link. */
  async function legacyLog(version: 'v1' | 'v2') {
    const log = await consoleLog(1);
    const { db } = log;
    await recordAuditEvent(db, entry(2, 'started', null), clock);
    const [one, two] = await db.selectFrom('audit_event').selectAll().orderBy('id').execute();
    if (!one || !two) throw new Error('no entries');
    const head1 = chainHash(GENESIS, 'entry', 1, contentHash(one));
    const head2 = chainHash(head1, 'entry', 2, contentHash(two));
    const manifest = JSON.stringify({
      entries: [
        [1, head1],
        [2, head2, contentHash(two), legacyFixedHash(two)],
      ],
      settlements: [],
    });
    const fields = {
      id: 1,
      after_id: 0,
      through_id: 2,
      entry_count: 2,
      previous_hash: GENESIS,
      head_hash: head2,
      sealed_at: new Date(clock.now()).toISOString(),
    };
    const signature = signer.sign({
      ...fields,
      settlements: 0,
      ...(version === 'v2' ? { manifest_hash: manifestHash(manifest) } : {}),
    });
    await db
      .insertInto('audit_seal')
      .values({ ...fields, manifest, key_id: signer.keyId, signature })
      .execute();
    await db
      .insertInto('audit_chain_open')
      .values({ event_id: 2, content_hash: contentHash(two) })
      .execute();
    return log;
  }

  it("still verify, legacy links included, and the sealer carries on from one, sealing its entry's settlement", async () => {
    const { db, seal, verify } = await legacyLog('v1');
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });
    await settleAuditEvent(db, 2, { outcome: 'success', detail: 'done' }, clock);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 1 });
    expect(await seal()).toBe(1);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });
    await sql`update audit_event set outcome = 'failure' where id = 2`.execute(db);
    expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: 2 });
  });

  it("forges a legacy link into a v1 seal after a v2 seal: the v2 seal's signed open list tells", async () => {
    const { db, seal, verify } = await legacyLog('v1');
    await recordAuditEvents(db, [entry(3)], clock);
    expect(await seal()).toBe(1);
    const row = await db.selectFrom('audit_event').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const { manifest } = await sealHolding(db, 1);
    manifest.entries[0] = [1, manifest.entries[0]?.[1], contentHash(row), legacyFixedHash(row)];
    await sql`update audit_seal set manifest = ${JSON.stringify(manifest)} where id = 1`.execute(db);
    await sql`update audit_event set outcome = 'failure', detail = 'forged' where id = 1`.execute(db);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.firstProblem).toMatchObject({ kind: 'changed', entryId: 1 });
    expect(report.firstProblem?.message).toContain("seal 2's signed list");
  });

  it('a legacy link in a seal signed as v2 is a seal the console never made', async () => {
    const { verify } = await legacyLog('v2');
    expect((await verify()).firstProblem).toMatchObject({ kind: 'seal', sealId: 1 });
  });
});

describe('a writer of the database holds sealing back', () => {
  it('dates one entry far in the future: the sealer refuses, naming it, and seals nothing past it', async () => {
    const { db, seal } = await consoleLog(3);
    await recordAuditEvents(db, [entry(4), entry(5), entry(6)], clock);
    await sql`update audit_event set at = '9999-01-01T00:00:00.000Z' where id = 4`.execute(db);
    await expect(seal()).rejects.toThrow(
      /entry 4 is dated "9999-01-01T00:00:00.000Z", later than this console's clock/,
    );
    expect(await db.selectFrom('audit_seal').select('id').execute()).toEqual([]);
    // Put right: sealing goes on from where it stopped.
    await sql`update audit_event set at = ${new Date(clock.now() - 60_000).toISOString()} where id = 4`.execute(
      db,
    );
    expect(await seal()).toBe(1);
  });

  it("keeps one entry young pass after pass: past 5 minutes by the console's clock it says so, every pass", async () => {
    const { db, checkpoint } = await consoleLog(3);
    const live = testClock(clock.now());
    const logs: string[] = [];
    const states: SealingState[] = [];
    const sealer = startAuditSealer({
      db,
      signer,
      clock: live,
      checkpoint,
      everyMs: 10_000,
      log: (level, message) => logs.push(`${level}: ${message}`),
      onState: (state) => states.push({ ...state }),
    });
    try {
      await live.sleeping();
      await live.advance(10_000);
      await live.sleeping();
      expect(checkpoint.current()?.through_id).toBe(3);
      await recordAuditEvents(db, [entry(4), entry(5), entry(6)], clock);
      for (let pass = 0; pass < 32; pass += 1) {
        // Always "just written": within the settle delay, never past the clock.
        await sql`update audit_event set at = ${new Date(live.now() + 10_000).toISOString()} where id = 4`.execute(
          db,
        );
        await live.advance(10_000);
        await live.sleeping();
      }
      expect(checkpoint.current()?.through_id).toBe(3);
      expect(states.at(-2)).toMatchObject({ stalled: null });
      expect(sealer.state.unsealedForMs).toBeGreaterThan(300_000);
      expect(sealer.state.stalled).toMatch(/the entries from 4 on have waited 5 minutes to be sealed/);
      expect(logs.filter((line) => line === 'error: the audit log is not being sealed')).toHaveLength(
        states.filter((state) => state.stalled).length,
      );
      expect(states.filter((state) => state.stalled).length).toBeGreaterThan(0);
    } finally {
      sealer.stop();
    }
  });
});

describe("a seal's outbox row", () => {
  it("is written in the seal's own transaction: a failed write leaves neither", async () => {
    const { db, database } = await consoleLog(3);
    await openAuditStream(db);
    const failing = sealAll({
      db,
      signer,
      clock,
      withSeal: async () => {
        throw new Error('outbox write failed');
      },
    });
    await expect(failing).rejects.toThrow('outbox write failed');
    expect(await db.selectFrom('audit_seal').select('id').execute()).toEqual([]);

    await sealAll({ db, signer, clock, withSeal: enqueueSeal });
    const rows = await database.db
      .selectFrom('audit_outbox')
      .select(['kind', 'entry_id'])
      .where('kind', '=', 'audit.seal')
      .execute();
    expect(rows).toEqual([{ kind: 'audit.seal', entry_id: 3 }]);
  });
});

describe('verifying from the last verified seal', () => {
  it('reads only what was sealed since, still catches a seal removed before it and new tampering', async () => {
    const { db, seal, checkpoint } = await consoleLog(30);
    await seal();
    const first = await verifyAuditChainFrom(db, signer, { anchor: checkpoint.current() });
    expect(first.report).toMatchObject({ ok: true, seals: 3, entries: 30 });

    await recordAuditEvents(db, [entry(31), entry(32)], clock);
    await seal();
    const next = await verifyAuditChainFrom(db, signer, { anchor: checkpoint.current(), from: first.point });
    expect(next.report).toMatchObject({ ok: true, seals: 1, entries: 2, sinceSeal: 3, verifiedFrom: 31 });

    await sql`update audit_event set outcome = 'failed' where id = 32`.execute(db);
    const tampered = await verifyAuditChainFrom(db, signer, {
      anchor: checkpoint.current(),
      from: first.point,
    });
    expect(tampered.report.firstProblem).toMatchObject({ kind: 'changed', entryId: 32 });
    expect(tampered.point).toBeNull();

    await sql`delete from audit_seal where id = 3`.execute(db);
    const cut = await verifyAuditChainFrom(db, signer, { from: next.point });
    expect(cut.report.ok).toBe(true);
    const before = await verifyAuditChainFrom(db, signer, { from: first.point });
    expect(before.report.firstProblem).toMatchObject({ kind: 'seal', sealId: 3 });
  });
});
