import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvents } from '@/lib/audit/store';
import { migrateAuditChain } from '@/lib/audit-chain/schema';
import { sealAll } from '@/lib/audit-chain/sealer';
import { auditSigningKey } from '@/lib/audit-chain/signing-key';
import { testClock } from '@/lib/clock';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { openAuditStream } from './delivery';
import { enqueueSeal } from './outbox';
import { readStreamStatus } from './status';
import { startAuditStreamer } from './streamer';
import { keepTime, startReceiver } from './test-receiver';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const clock = testClock(Date.UTC(2026, 10, 27, 12));
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-stream-seals');
  await migrateAuditLog(database);
  await migrateAuditChain(database);
});
afterAll(async () => {
  await database?.dispose();
});

const entry = (index: number): AuditEntry => ({
  action: 'rotate',
  operator: { id: 'op-ann', email: 'ann@example.com' },
  environment: 'Customer',
  userGroupId: `group-${index}`,
  outcome: 'success',
  requestId: `request-${index}`,
  at: new Date(clock.now() - 60_000),
});

describe('the audit stream and the chain', () => {
  it('carries each seal after the entries it covers, signed, with every link', async () => {
    await openAuditStream(database.db);
    await recordAuditEvents(
      database.db,
      Array.from({ length: 3 }, (_, index) => entry(index + 1)),
      clock,
    );
    // As the console wires them (lib/server/index.ts): each seal goes to the outbox once written.
    const sealed = await sealAll({
      db: database.db,
      signer,
      clock,
      batchSize: 10,
      withSeal: enqueueSeal,
    });
    expect(sealed).toBe(1);
    const receiver = await startReceiver(undefined, clock);
    const streamer = startAuditStreamer({
      db: database.db,
      clock,
      config: { url: receiver.url, token: null, format: 'ndjson', batchSize: 50 },
      metrics: consoleMetrics(),
      log: () => {},
      timing: { leaseMs: 3_000, pollMs: 20, settleMs: 0, backoffMs: 40, maxBackoffMs: 150 },
    });
    const time = keepTime(clock);
    try {
      // Three entries and their seal.
      await receiver.accepting((objects) => objects.length >= 4);
    } finally {
      // Stopping lets the batch in hand be acknowledged first.
      await streamer.stop();
      time.stop();
      await receiver.close();
    }
    expect((await readStreamStatus(database.db, clock.now()))?.pending).toBe(0);
    const accepted = receiver.accepted() as unknown as Array<Record<string, unknown>>;
    expect(accepted.map((object) => object.kind)).toEqual([
      'audit.entry',
      'audit.entry',
      'audit.entry',
      'audit.seal',
    ]);
    const seal = accepted.at(-1);
    expect(seal).toMatchObject({ idempotency_key: 'seal:1', entry_count: 3 });
    expect(seal?.signature).toEqual(expect.any(String));
    const manifest = seal?.manifest as { entries: unknown[] } | undefined;
    expect(manifest?.entries).toHaveLength(3);
  });
});

describe('a console started without AUDIT_STREAM_URL', () => {
  it("leaves the stream's row and outbox to the consoles that stream", async () => {
    await openAuditStream(database.db);
    await recordAuditEvents(database.db, [entry(10), entry(11)]);
    const waiting = await database.db.selectFrom('audit_outbox').select('id').execute();
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    // As lib/server/index.ts starts it with AUDIT_STREAM_URL unset.
    const streamer = startAuditStreamer({
      db: database.db,
      config: null,
      clock,
      metrics: consoleMetrics(),
      log: () => {},
    });
    expect(streamer).toBeNull();
    expect(await database.db.selectFrom('audit_stream').select('name').execute()).toHaveLength(1);
    expect(await database.db.selectFrom('audit_outbox').select('id').execute()).toEqual(waiting);
  });
});
