/**
 * The console killed with `kill -9` in the middle of a batch: the stream runs in a child process
 * (stream-child.ts) on a real database, the receiver holds the second batch unanswered, the child is
 * SIGKILLed, and a second one takes over once the dead one's lease has run out (on the children's
 * clocks, which move as they poll: stream-child.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '@/lib/audit/audit-log';
import { migrateAuditLog } from '@/lib/audit/schema';
import { testClock } from '@/lib/clock';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { createTestDatabaseLocation, type TestDatabaseLocation } from '@/lib/testing/console-test-database';
import { openAuditStream } from './delivery';
import { readStreamStatus } from './status';
import { type ReceivedBatch, startReceiver } from './test-receiver';

let created: TestDatabaseLocation;
let database: ConsoleDatabase;
const children: ChildProcess[] = [];
// Starts where the children's clocks do: the entries are written at their start, settled at once.
const clock = testClock();

beforeAll(async () => {
  created = await createTestDatabaseLocation('audit-stream-crash');
  database = openConsoleDatabase(created.location);
  await migrateAuditLog(database);
  await openAuditStream(database.db);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.close();
  await created?.dispose();
});

async function startChild(url: URL): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/audit-stream/stream-child.ts'], {
    env: {
      ...process.env,
      STREAM_DATABASE: JSON.stringify(created.location),
      STREAM_URL: url.toString(),
      STREAM_BATCH_SIZE: '10',
      STREAM_TIMING: JSON.stringify({
        leaseMs: 1_500,
        pollMs: 20,
        settleMs: 0,
        backoffMs: 40,
        maxBackoffMs: 150,
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await once(child.stdout as NonNullable<typeof child.stdout>, 'data');
  return child;
}

describe('the audit stream, its console killed mid-batch', () => {
  it('delivers every entry in order; the batch in flight comes again, with the same idempotency keys', async () => {
    const auditLog = createAuditLog(database.db, {
      metrics: consoleMetrics(),
      logger: { error: () => {} },
      clock,
    });
    const write = async (from: number, count: number) => {
      for (let index = from; index < from + count; index += 1)
        await auditLog.record({
          action: 'sign-in',
          operator: { id: 'op-bo', email: 'bo@example.com' },
          outcome: 'success',
          requestId: `req-${index}`,
        });
    };
    await write(0, 30);
    let inFlight: ReceivedBatch | undefined;
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const receiver = await startReceiver((index, batch) => {
      if (index !== 1) return { status: 200 };
      inFlight = batch;
      held();
      return { status: 200, hang: true };
    });
    try {
      const first = await startChild(receiver.url);
      await holding;
      first.kill('SIGKILL');
      await once(first, 'exit');
      await write(30, 10);
      const second = await startChild(receiver.url);
      // The first batch, the held one again, and the 20 after it.
      await receiver.accepting((objects) => objects.length >= 40);
      // Stopped, it acknowledges the batch in hand first.
      second.kill('SIGTERM');
      await once(second, 'exit');
    } finally {
      await receiver.close();
    }
    expect((await readStreamStatus(database.db, clock.now()))?.pending).toBe(0);

    const ids = (await database.db.selectFrom('audit_event').select('id').orderBy('id').execute()).map(
      (row) => row.id,
    );
    expect(ids).toHaveLength(40);
    const received = receiver.batches.flatMap((batch) => batch.objects);
    // Every entry arrived, answered 200 (the batch held unanswered came again).
    expect(receiver.accepted().map((object) => object.id)).toEqual(ids);
    // The only duplicates are the batch in flight when the console died, each with its key and bytes.
    const heldKeys = inFlight?.objects.map((object) => object.idempotency_key) ?? [];
    expect(heldKeys).toHaveLength(10);
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const object of received) {
      const key = object.idempotency_key;
      if (seen.has(key)) {
        duplicates.push(key);
        expect(JSON.stringify(object)).toBe(seen.get(key));
      } else seen.set(key, JSON.stringify(object));
    }
    expect(duplicates).toEqual(heldKeys);
    // In the order written, first arrivals and all.
    expect([...seen.values()].map((text) => JSON.parse(text).id)).toEqual(ids);
  }, 150_000);
});
