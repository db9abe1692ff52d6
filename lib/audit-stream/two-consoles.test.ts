/**
 * Several consoles on one PostgreSQL database (two pools here, as two consoles have): each runs its
 * streamer, one holds the lease and sends; and an entry whose transaction commits after a later
 * one's is neither skipped nor, within the settle delay, out of order. Both streamers, the receiver
 * and the entries' stamps run on one clock this file moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '@/lib/audit/audit-log';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
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
import { keepTime, type Receiver, startReceiver } from './test-receiver';

let created: TestDatabaseLocation;
const consoles: ConsoleDatabase[] = [];
const metrics = consoleMetrics();
const clock = testClock();

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
      clock,
      config: { url: receiver.url, token: null, format: 'ndjson', batchSize: 5 },
      metrics,
      log: () => {},
      timing: { leaseMs: 3_000, pollMs: 10, backoffMs: 40, maxBackoffMs: 150, ...timing },
    }),
  );
  return { stop: () => Promise.all(running.map((streamer) => streamer.stop())) };
}

const first = () => consoles[0] as ConsoleDatabase;
const pending = async () => (await readStreamStatus(first().db, clock.now()))?.pending;

/** The id an audit entry takes in a transaction held open until `commit` is called. */
function heldOpen(database: ConsoleDatabase, requestId: string) {
  let commit = () => {};
  const held = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let taken: (id: number) => void = () => {};
  const id = new Promise<number>((resolve) => {
    taken = resolve;
  });
  const committed = database.db.transaction().execute(async (trx) => {
    taken(await recordAuditEvent(trx, entry(requestId), clock));
    await held;
  });
  return { id, commit, committed };
}

describe('the audit stream with several consoles', () => {
  // Consoles share a database on PostgreSQL only (on SQLite one process holds it).
  it.skipIf(testDialect() !== 'postgres')(
    'is one stream: one console sends at a time, every entry once, in order',
    async () => {
      const receiver = await startReceiver(
        (index) => ({ status: 200, delayMs: index % 2 === 0 ? 30 : 0 }),
        clock,
      );
      // Two writers commit in any order: a settle delay keeps the stream in id order. Time runs
      // only while the streamers poll, so it is long here at no cost (a write outlasts a few polls).
      const running = streamers(receiver, { settleMs: 3_000 });
      const time = keepTime(clock);
      try {
        // Both consoles write while both stream.
        await Promise.all(
          consoles.map(async (database, which) => {
            const auditLog = createAuditLog(database.db, {
              metrics,
              logger: { error: () => {} },
              clock,
            });
            for (let index = 0; index < 40; index += 1) await auditLog.record(entry(`c${which}-${index}`));
          }),
        );
        await receiver.accepting((objects) => objects.length >= 80);
      } finally {
        // Stopping lets a batch in hand be acknowledged first.
        await running.stop();
        time.stop();
        await receiver.close();
      }
      expect(await pending()).toBe(0);
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
      const receiver = await startReceiver(undefined, clock);
      const settleMs = 1_500;
      const running = streamers(receiver, { settleMs });
      const [one, other] = consoles as [ConsoleDatabase, ConsoleDatabase];
      let time: { stop(): void } | undefined;
      try {
        // Both streamers have looked and wait to poll again.
        await clock.sleeping(2);
        // The lower id is taken first, and committed after the higher one.
        const late = heldOpen(one, 'late');
        const lowerId = await late.id;
        const higherId = await recordAuditEvent(other.db, entry('early'), clock);
        expect(higherId).toBeGreaterThan(lowerId);
        // 300 ms of polling, every 10 ms, both looking each time: the higher one is still settling.
        for (let polled = 0; polled < 300; polled += 10) {
          await clock.advance(10);
          await clock.sleeping(2);
        }
        expect(receiver.batches).toEqual([]);
        late.commit();
        await late.committed;
        time = keepTime(clock);
        await receiver.accepting((objects) => objects.length >= 2);
        expect(receiver.accepted().map((object) => object.id)).toEqual([lowerId, higherId]);

        // A transaction longer than the delay: the late entry still arrives, after the later one.
        const slow = heldOpen(one, 'slow');
        const slowId = await slow.id;
        const quickId = await recordAuditEvent(other.db, entry('quick'), clock);
        await receiver.accepting((objects) => objects.some((object) => object.id === quickId));
        slow.commit();
        await slow.committed;
        await receiver.accepting((objects) => objects.length >= 4);
        await running.stop();
        expect(await pending()).toBe(0);
        expect(receiver.accepted().map((object) => object.id)).toEqual([lowerId, higherId, quickId, slowId]);
      } finally {
        await running.stop();
        time?.stop();
        await receiver.close();
      }
    },
    60_000,
  );
});
