/**
 * Several consoles on one PostgreSQL database (two pools here, as two consoles have): each runs its
 * streamer, one holds the lease and sends; and an entry whose transaction commits after a later
 * one's is neither skipped nor, within the settle delay, out of order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '@/lib/audit/audit-log';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvent } from '@/lib/audit/store';
import { realClock } from '@/lib/clock';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import {
  createTestDatabaseLocation,
  type TestDatabaseLocation,
  testDialect,
} from '@/lib/testing/console-test-database';
import { openAuditStream } from './delivery';
import { readStreamStatus } from './status';
import { type StreamerTiming, startAuditStreamer } from './streamer';
import { eventually, type Receiver, startReceiver } from './test-receiver';

let created: TestDatabaseLocation;
const consoles: ConsoleDatabase[] = [];
const metrics = consoleMetrics();

beforeAll(async () => {
  created = await createTestDatabaseLocation('audit-stream-two');
  consoles.push(openConsoleDatabase(created.location), openConsoleDatabase(created.location));
  await migrateAuditLog(consoles[0] as ConsoleDatabase);
  await openAuditStream((consoles[0] as ConsoleDatabase).db);
});
afterAll(async () => {
  for (const database of consoles) await database.close();
  await created?.dispose();
});

const entry = (requestId: string) => ({
  action: 'sign-in' as const,
  operator: { id: 'op-cy', email: 'cy@example.com' },
  outcome: 'success',
  requestId,
});

function streamers(receiver: Receiver, timing: Partial<StreamerTiming>) {
  const running = consoles.map((database) =>
    startAuditStreamer({
      db: database.db,
      // The sender's loop on real time: it paces real HTTP to a real receiver.
      clock: realClock,
      config: { url: receiver.url, token: null, format: 'ndjson', batchSize: 5 },
      metrics,
      log: () => {},
      timing: { leaseMs: 3_000, pollMs: 10, backoffMs: 40, maxBackoffMs: 150, ...timing },
    }),
  );
  return { stop: () => Promise.all(running.map((streamer) => streamer.stop())) };
}

const first = () => consoles[0] as ConsoleDatabase;
const drained = () => eventually(async () => (await readStreamStatus(first().db, Date.now()))?.pending === 0);

describe('the audit stream with several consoles', () => {
  // Consoles share a database on PostgreSQL only (on SQLite one process holds it).
  it.skipIf(testDialect() !== 'postgres')(
    'is one stream: one console sends at a time, every entry once, in order',
    async () => {
      const receiver = await startReceiver((index) => ({ status: 200, delayMs: index % 2 === 0 ? 30 : 0 }));
      // Two writers commit in any order: a short settle delay keeps the stream in id order.
      const running = streamers(receiver, { settleMs: 300 });
      try {
        // Both consoles write while both stream.
        await Promise.all(
          consoles.map(async (database, which) => {
            const auditLog = createAuditLog(database.db, {
              metrics,
              logger: { error: () => {} },
              clock: realClock,
            });
            for (let index = 0; index < 40; index += 1) await auditLog.record(entry(`c${which}-${index}`));
          }),
        );
        await drained();
      } finally {
        await running.stop();
        await receiver.close();
      }
      const ids = (await first().db.selectFrom('audit_event').select('id').orderBy('id').execute()).map(
        (row) => row.id,
      );
      expect(ids).toHaveLength(80);
      expect(receiver.maxInFlight()).toBe(1);
      expect(receiver.accepted().map((object) => object.id)).toEqual(ids);
    },
    60_000,
  );

  it.skipIf(testDialect() !== 'postgres')(
    'delivers an entry that commits after a later one: in order within the settle delay, never skipped past',
    async () => {
      const receiver = await startReceiver();
      const running = streamers(receiver, { settleMs: 1_500 });
      const [one, other] = consoles as [ConsoleDatabase, ConsoleDatabase];
      try {
        let commit = () => {};
        const held = new Promise<void>((resolve) => {
          commit = resolve;
        });
        let lowerId = 0;
        // The lower id is taken first, and committed after the higher one.
        const late = one.db.transaction().execute(async (trx) => {
          lowerId = await recordAuditEvent(trx, entry('late'));
          await held;
        });
        await eventually(() => lowerId > 0);
        const higherId = await recordAuditEvent(other.db, entry('early'));
        expect(higherId).toBeGreaterThan(lowerId);
        await new Promise((resolve) => setTimeout(resolve, 300));
        commit();
        await late;
        await drained();
        expect(receiver.accepted().map((object) => object.id)).toEqual([lowerId, higherId]);

        // A transaction longer than the delay: the late entry still arrives, after the later one.
        const waitLonger = new Promise<void>((resolve) => {
          commit = resolve;
        });
        let slowId = 0;
        const slow = one.db.transaction().execute(async (trx) => {
          slowId = await recordAuditEvent(trx, entry('slow'));
          await waitLonger;
        });
        await eventually(() => slowId > 0);
        const quickId = await recordAuditEvent(other.db, entry('quick'));
        await eventually(() => receiver.accepted().some((object) => object.id === quickId));
        commit();
        await slow;
        await drained();
        expect(receiver.accepted().map((object) => object.id)).toEqual([lowerId, higherId, quickId, slowId]);
      } finally {
        await running.stop();
        await receiver.close();
      }
    },
    60_000,
  );
});
