import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateAuditChain } from '@/lib/audit-chain/schema';
import { sealAll } from '@/lib/audit-chain/sealer';
import { auditSigningKey } from '@/lib/audit-chain/signing-key';
import { verifyAuditChain } from '@/lib/audit-chain/verify';
import { testClock } from '@/lib/clock';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createAuditLog } from './audit-log';
import { pruneOnce } from './retention';
import { migrateAuditLog } from './schema';
import { type AuditEntry, recordAuditEvents } from './store';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const clock = testClock(Date.UTC(2026, 10, 27, 12));
const day = 86_400_000;
const quiet = { clock, metrics: consoleMetrics(), logger: { error: () => {} } };
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));

const entry = (requestId: string, daysAgo: number): AuditEntry => ({
  action: 'sign-in',
  operator: { id: 'op-ann', email: 'ann@example.com' },
  outcome: 'success',
  requestId,
  at: new Date(clock.now() - daysAgo * day),
});

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-retention');
  await migrateAuditLog(database);
  await migrateAuditChain(database);
  // As the console server runs it: on SQLite each batch is a transaction on the write thread (the
  // tests below with a database of their own run them on the main connection).
  database.startWriteThread(testClock());
});
afterAll(async () => {
  await database?.dispose();
});

const remaining = async () =>
  await database.db
    .selectFrom('audit_event')
    .select(['id', 'request_id', 'action', 'detail'])
    .orderBy('id')
    .execute();
const seal = (batchSize = 500) => sealAll({ db: database.db, signer, clock, batchSize });
const retention = (holds: Array<() => Promise<number | null>> = []) => ({
  database,
  auditLog: createAuditLog(database.db, quiet),
  days: 90,
  clock,
  holds,
  log: () => {},
});

describe('audit retention', () => {
  it('prunes only what is older than the days set, in batches, and says so on record before it runs', async () => {
    await recordAuditEvents(
      database.db,
      [
        ...Array.from({ length: 4_500 }, (_, index) => entry(`old-${index}`, 400)),
        entry('kept-89', 89),
        entry('kept-today', 0),
      ],
      clock,
    );
    // Nothing is pruned before it is sealed.
    expect(await pruneOnce(retention())).toBe(0);
    // Nine batches of old entries, then one of kept-89 (kept-today is too young to seal yet).
    expect(await seal()).toBe(10);
    const batches = vi.spyOn(database, 'writeTransaction');
    expect(await pruneOnce(retention())).toBe(4_500);
    expect(batches).toHaveBeenCalledTimes(9);
    batches.mockRestore();
    const left = await remaining();
    expect(left.map((row) => row.request_id).slice(0, 2)).toEqual(['kept-89', 'kept-today']);
    expect(left.at(-1)).toMatchObject({
      action: 'audit.prune',
      detail: '4,500 entries before 2026-08-29T12:00:00.000Z pruned (AUDIT_RETENTION_DAYS=90)',
    });
    // Nothing old is left: a second pass (another console's) writes nothing.
    expect(await pruneOnce(retention())).toBe(0);
    expect(await remaining()).toHaveLength(3);
  });

  it('leaves a chain that verifies from the first kept entry, and still names a change after it', async () => {
    clock.advance(60_000);
    await seal();
    const report = await verifyAuditChain(database.db, signer);
    const [first] = await remaining();
    expect(report).toMatchObject({ ok: true, firstSeal: 10, verifiedFrom: first?.id, unsealed: 0 });
    await sql`update audit_event set detail = 'rewritten' where request_id = 'kept-today'`.execute(
      database.db,
    );
    expect((await verifyAuditChain(database.db, signer)).firstProblem).toMatchObject({ kind: 'changed' });
    await sql`update audit_event set detail = null where request_id = 'kept-today'`.execute(database.db);
    expect((await verifyAuditChain(database.db, signer)).ok).toBe(true);
  });

  it('prunes no further than a hold allows (entries a stream has not sent), nor the newest seal', async () => {
    const own = await openTestConsoleDatabase('audit-retention-holds');
    try {
      await migrateAuditLog(own);
      await migrateAuditChain(own);
      const sealOwn = () => sealAll({ db: own.db, signer, clock, batchSize: 1 });
      const names = async () =>
        (await own.db.selectFrom('audit_event').select('request_id').orderBy('id').execute()).map(
          (row) => row.request_id,
        );
      const ownRetention = (holds: Array<() => Promise<number | null>>) => ({
        ...retention(holds),
        database: own,
        auditLog: createAuditLog(own.db, quiet),
      });
      await recordAuditEvents(own.db, [entry('old-1', 400)], clock);
      await sealOwn();
      // The newest seal is where the next one continues: its batch stays.
      expect(await pruneOnce(ownRetention([]))).toBe(0);

      await recordAuditEvents(own.db, [entry('old-2', 400), entry('old-3', 400), entry('old-4', 400)], clock);
      expect(await sealOwn()).toBe(3);
      // A stream that sent ids 1 and 2 only; another hold without a limit.
      expect(await pruneOnce(ownRetention([async () => null, async () => 2]))).toBe(2);
      expect(await names()).toEqual(['old-3', 'old-4', expect.any(String)]);

      clock.advance(60_000);
      await sealOwn();
      expect(await pruneOnce(ownRetention([]))).toBe(2);
      expect(await names()).toEqual(['audit.prune', 'audit.prune'].map(() => expect.any(String)));
      clock.advance(60_000);
      await sealOwn();
      expect(await verifyAuditChain(own.db, signer)).toMatchObject({ ok: true, unsealed: 0 });
    } finally {
      await own.dispose();
    }
  });

  it('prunes nothing when the pruning cannot be put on record', async () => {
    const own = await openTestConsoleDatabase('audit-retention-unrecorded');
    try {
      await migrateAuditLog(own);
      await migrateAuditChain(own);
      await recordAuditEvents(own.db, [entry('old-unrecorded', 400), entry('newer', 400)], clock);
      await sealAll({ db: own.db, signer, clock, batchSize: 1 });
      const auditLog = { audited: () => Promise.reject(new Error('the log is unavailable')) };
      await expect(pruneOnce({ ...retention(), database: own, auditLog })).rejects.toThrow();
      const left = await own.db.selectFrom('audit_event').select('request_id').execute();
      expect(left.map((row) => row.request_id)).toContain('old-unrecorded');
    } finally {
      await own.dispose();
    }
  });

  it('pauses after each batch as long as the batch took, so the console answers between batches', async () => {
    const own = await openTestConsoleDatabase('audit-retention-pause');
    try {
      await migrateAuditLog(own);
      await migrateAuditChain(own);
      await recordAuditEvents(
        own.db,
        Array.from({ length: 4 }, (_, index) => entry(`paced-${index}`, 400)),
        clock,
      );
      await sealAll({ db: own.db, signer, clock, batchSize: 1 });
      // Each reading of the monotonic clock is 40 ms after the one before: a batch takes 40 ms.
      let monotonic = 0;
      const pauses: number[] = [];
      const pacedClock = {
        now: () => clock.now(),
        monotonic: () => (monotonic += 40),
        sleep: async (ms: number) => {
          pauses.push(ms);
        },
      };
      // Three of the four batches go: the newest seal's stays, for the next seal to continue.
      expect(await pruneOnce({ ...retention(), database: own, clock: pacedClock })).toBe(3);
      expect(pauses).toEqual([40, 40, 40]);
    } finally {
      await own.dispose();
    }
  });
});
