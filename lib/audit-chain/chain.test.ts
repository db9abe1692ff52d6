import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvent, recordAuditEvents, settleAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { migrateAuditChain } from './schema';
import { sealAll } from './sealer';
import { auditSigningKey } from './signing-key';
import { verifyAuditChain } from './verify';

const clock = testClock(Date.UTC(2026, 10, 27, 12));
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));
const opened: Array<{ dispose(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.dispose()));
});

const entry = (index: number, outcome = 'success'): AuditEntry => ({
  action: 'rotate',
  operator: { id: 'op-ann', email: 'ann@example.com' },
  environment: 'Customer',
  userGroupId: `group-${index}`,
  outcome,
  requestId: `request-${index}`,
  at: new Date(clock.now() - 60_000),
});

/** A database with `count` entries sealed ten at a time. */
async function sealedLog(count: number) {
  const database = await openTestConsoleDatabase('audit-chain');
  opened.push(database);
  await migrateAuditLog(database);
  await migrateAuditChain(database);
  await recordAuditEvents(
    database.db,
    Array.from({ length: count }, (_, index) => entry(index + 1)),
    clock,
  );
  const seal = () => sealAll({ db: database.db, signer, clock, batchSize: 10 });
  const verify = () => verifyAuditChain(database.db, signer);
  return { database, db: database.db, seal, verify };
}

describe('the audit chain', () => {
  it('seals the log in signed batches and verifies it, leaving entries younger than the settle delay', async () => {
    const { db, seal, verify } = await sealedLog(25);
    await recordAuditEvent(db, { ...entry(26), at: new Date(clock.now() - 1_000) }, clock);
    expect(await seal()).toBe(3);
    expect(await seal()).toBe(0);
    expect(await verify()).toMatchObject({
      ok: true,
      seals: 3,
      entries: 25,
      verifiedFrom: 1,
      verifiedThrough: 25,
      unsealed: 1,
      firstProblem: null,
    });
  });

  const tampering = [
    {
      name: 'edited',
      tamper: (db: Db) => sql`update audit_event set outcome = 'failed' where id = 12`.execute(db),
      expected: { kind: 'changed', entryId: 12, message: 'entry 12 was changed' },
    },
    {
      name: 'deleted',
      tamper: (db: Db) => sql`delete from audit_event where id = 12`.execute(db),
      expected: { kind: 'removed', entryId: 12, message: 'entry 12 was removed' },
    },
    {
      // Id 15 was never committed (a rolled-back write leaves such a gap on PostgreSQL).
      name: 'inserted',
      tamper: (db: Db) =>
        sql`insert into audit_event (id, at, action, outcome, request_id) values (15, '2026-11-27T11:00:00.000Z', 'rotate', 'success', 'forged')`.execute(
          db,
        ),
      expected: { kind: 'inserted', entryId: 15, message: 'entry 15 was inserted into seal 2' },
    },
  ];
  type Db = Parameters<typeof recordAuditEvent>[0];

  it.each(tampering)('names the first entry $name directly in the database', async ({ tamper, expected }) => {
    const { db, seal, verify } = await sealedLog(30);
    await sql`delete from audit_event where id = 15`.execute(db);
    await seal();
    expect((await verify()).ok).toBe(true);
    await tamper(db);
    // A later entry changed too: the first one is named.
    await sql`update audit_event set detail = 'rewritten' where id = 27`.execute(db);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.problems).toBe(2);
    expect(report.firstProblem).toMatchObject(expected);
  });

  it('follows an entry sealed while started until its settlement is sealed, and catches an edit after', async () => {
    const { db, seal, verify } = await sealedLog(3);
    const job = await recordAuditEvent(db, entry(4, 'started'), clock);
    await seal();
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });

    // Settled after its seal (a bulk job ending hours later): not tampering, sealed on the next pass.
    await settleAuditEvent(db, job, { outcome: 'success', detail: '500 rows' }, clock);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 1 });
    expect(await seal()).toBe(1);
    expect(await verify()).toMatchObject({ ok: true, pendingSettlements: 0 });

    // The settled outcome edited afterwards.
    await sql`update audit_event set outcome = 'failed_rows' where id = ${job}`.execute(db);
    expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: job });
  });

  it('catches a started entry whose operator is changed before it settles', async () => {
    const { db, seal, verify } = await sealedLog(2);
    const job = await recordAuditEvent(db, entry(3, 'started'), clock);
    await seal();
    await sql`update audit_event set operator_email = 'mallory@example.com', outcome = 'success' where id = ${job}`.execute(
      db,
    );
    expect((await verify()).firstProblem).toMatchObject({ kind: 'changed', entryId: job });
  });

  it('refuses seals another key signed, or that were rewritten', async () => {
    const { db, seal, verify } = await sealedLog(20);
    await seal();
    const otherKey = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));
    expect((await verifyAuditChain(db, otherKey)).firstProblem).toMatchObject({ kind: 'seal', sealId: 1 });

    // Entry 5 and its seal's links rewritten to match: the signed head no longer follows.
    await sql`update audit_event set outcome = 'failed' where id = 5`.execute(db);
    await sql`update audit_seal set head_hash = 'forged' where id = 1`.execute(db);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.firstProblem).toMatchObject({ kind: 'changed', entryId: 5 });

    await sql`delete from audit_seal where id = 1`.execute(db);
    expect((await verify()).firstProblem).toMatchObject({ kind: 'inserted', entryId: 1 });
  });
});
