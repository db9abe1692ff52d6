import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '@/lib/audit/audit-log';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvents } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import type { AuditStreamConfig } from '@/lib/config/audit-stream';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { closeAuditStream, openAuditStream } from './delivery';
import { isStreamSet } from './outbox';
import { describeStreamStatus, readStreamStatus, streamedThrough } from './status';
import { startAuditStreamer } from './streamer';
import { keepTime, type Receiver, startReceiver } from './test-receiver';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const metrics = consoleMetrics();
// The stream's pace, the receiver's delays and the entries' stamps, on one clock this file moves.
const clock = testClock();
const quiet = { metrics, logger: { error: () => {} }, clock };
const STREAM_TOKEN = 'stream-secret-0123456789';
const GROUP_TOKEN = 'a'.repeat(64);
const timing = { leaseMs: 3_000, pollMs: 20, settleMs: 0, backoffMs: 40, maxBackoffMs: 150 };

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-stream');
  await migrateAuditLog(database);
});
afterAll(async () => {
  await database?.dispose();
});

const operator = { id: 'op-ann', email: 'ann@example.com' };
const configOf = (receiver: Receiver, batchSize = 7): AuditStreamConfig => ({
  url: receiver.url,
  token: STREAM_TOKEN,
  format: 'ndjson',
  batchSize,
});

/** Every revision the outbox was to deliver: each entry as written, and settled when written `started`. */
async function expectedKeys(sinceId: number) {
  const rows = await database.db
    .selectFrom('audit_event')
    .select(['id', 'request_id'])
    .where('id', '>', sinceId)
    .orderBy('id')
    .execute();
  return rows;
}

describe('the audit stream', () => {
  it('delivers every entry in order, once, through an endpoint down, answering 429 and 503, and slow', async () => {
    const receiver = await startReceiver(undefined, clock);
    const logged: string[] = [];
    // The failures the streamer logs (after recording them), each resolving what waits for it.
    const failed = new Map<string, () => void>();
    const failing = (failure: string) =>
      new Promise<void>((resolve) => {
        failed.set(failure, resolve);
      });
    const auditLog = createAuditLog(database.db, quiet);
    const before = (await streamedThrough(database.db)) ?? 0;
    expect(await streamedThrough(database.db)).toBeNull();
    await openAuditStream(database.db);
    let written = 0;
    const write = async (count: number) => {
      for (let index = 0; index < count; index += 1) {
        written += 1;
        if (written % 5 === 0)
          // Written `started`, settled with the token the action issued: a second revision.
          await auditLog.audited(
            {
              action: 'get-or-create',
              operator,
              requestId: `req-${written}`,
              environment: 'Customer',
              userGroupId: `g-${written}`,
            },
            async () => GROUP_TOKEN,
            { settled: (token) => ({ outcome: 'success', token }) },
          );
        else
          await auditLog.record({
            action: 'sign-in',
            operator,
            outcome: 'success',
            requestId: `req-${written}`,
          });
      }
    };
    await write(12);
    // They have waited 2 s when the stream starts: its first look finds it behind.
    await clock.advance(2_000);
    // Down first: nothing listens on its port.
    await receiver.down();
    const unreachable = failing('unreachable');
    const streamer = startAuditStreamer({
      db: database.db,
      clock,
      config: configOf(receiver),
      metrics,
      log: (_level, fields, message) => {
        logged.push(`${message} ${JSON.stringify(fields)}`);
        if (typeof fields.failure === 'string') failed.get(fields.failure)?.();
      },
      timing,
    });
    const time = keepTime(clock);
    try {
      await unreachable;
      expect((await readStreamStatus(database.db, clock.now()))?.failure).toBe('unreachable');
      await write(8);
      // Back, but busy: 429 with Retry-After: 1 (longer than any backoff here), then 503 until told.
      let answering503 = true;
      receiver.plan((index) =>
        index === 0
          ? { status: 429, retryAfter: '1' }
          : answering503
            ? { status: 503 }
            : index % 3 === 0
              ? { status: 200, delayMs: 400 }
              : { status: 200 },
      );
      const answering = failing('answering 503');
      await receiver.up();
      await answering;
      const behind = await readStreamStatus(database.db, clock.now());
      expect(behind?.failure).toBe('answering 503');
      expect(behind && describeStreamStatus(behind)).toMatch(
        /^streaming: \d+ s behind, endpoint answering 503$/,
      );
      expect(await metrics.registry.getSingleMetricAsString('console_audit_stream_failures_total')).toMatch(
        /reason="503"/,
      );
      expect((await metrics.auditStreamLag.get()).values[0]?.value).toBeGreaterThan(0);
      expect((await metrics.auditStreamPending.get()).values[0]?.value).toBeGreaterThan(0);
      // The retry after the 429 waited for its Retry-After (1 s, on the stream's clock).
      const [refused, retried] = receiver.batches;
      expect((retried?.receivedAt ?? 0) - (refused?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1_000);
      answering503 = false;
      await write(15);
      // 35 entries, every fifth settled again: 42 revisions.
      await receiver.accepting((objects) => objects.length >= 42);
    } finally {
      // Stopping lets the batch in hand be acknowledged first.
      await streamer.stop();
      time.stop();
      await receiver.close();
    }
    const drained = await readStreamStatus(database.db, clock.now());
    expect(drained?.pending).toBe(0);
    expect(drained?.failure).toBeNull();

    const entries = await expectedKeys(before);
    expect(entries).toHaveLength(35);
    const settledIds = new Set(entries.filter((_, index) => (index + 1) % 5 === 0).map((entry) => entry.id));
    const accepted = receiver.accepted();
    const keys = accepted.map((object) => object.idempotency_key);
    // None missing, none twice (no console died), every entry as written and settled ones again.
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(
      new Set([...entries.map((entry) => `${entry.id}:0`), ...[...settledIds].map((id) => `${id}:1`)]),
    );
    // In the order written: entries by id, each settlement after its entry.
    const written0 = accepted.filter((object) => object.revision === 0).map((object) => object.id);
    expect(written0).toEqual([...written0].sort((a, b) => a - b));
    for (const id of settledIds) expect(keys.indexOf(`${id}:1`)).toBeGreaterThan(keys.indexOf(`${id}:0`));
    // Batches bounded; the bearer sent, as NDJSON.
    for (const batch of receiver.batches) {
      expect(batch.objects.length).toBeLessThanOrEqual(7);
      expect(batch.headers.authorization).toBe(`Bearer ${STREAM_TOKEN}`);
      expect(batch.headers['content-type']).toBe('application/x-ndjson');
    }
    // What the audit page shows: the settled revision carries the token's fingerprint, never the token.
    const settled = accepted.find((object) => object.revision === 1);
    expect(settled).toMatchObject({ kind: 'audit.entry', outcome: 'success', action: 'get-or-create' });
    expect(settled?.token_fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(receiver.batches.map((batch) => batch.body).join('')).not.toContain(GROUP_TOKEN);
    const revision0 = accepted.find((object) => object.id === settled?.id && object.revision === 0);
    expect(revision0?.outcome).toBe('started');
    // The stream's token is never logged.
    expect(logged.join('\n')).not.toContain(STREAM_TOKEN);
    expect(logged.some((line) => line.includes('answering 503'))).toBe(true);
    // Everything delivered: retention may prune up to the newest entry.
    expect(await streamedThrough(database.db)).toBe(entries.at(-1)?.id);
    const upToDate = await readStreamStatus(database.db, clock.now());
    expect(upToDate && describeStreamStatus(upToDate)).toBe('streaming: up to date');
  }, 60_000);

  it('holds retention back to the entries delivered, and once switched off writes no outbox and holds nothing back', async () => {
    const auditLog = createAuditLog(database.db, quiet);
    await openAuditStream(database.db);
    const newest = (await streamedThrough(database.db)) ?? 0;
    const waiting = await auditLog.record({
      action: 'sign-in',
      operator,
      outcome: 'success',
      requestId: 'req-waiting',
    });
    await auditLog.record({ action: 'sign-in', operator, outcome: 'success', requestId: 'req-after' });
    expect(waiting).toBeGreaterThan(newest);
    // Not delivered yet (no streamer runs): retention may prune up to the entry before it.
    expect(await streamedThrough(database.db)).toBe(waiting - 1);
    expect((await readStreamStatus(database.db, clock.now()))?.pending).toBe(2);
    // AUDIT_STREAM_URL unset: what was waiting is dropped, and the log writes no outbox row.
    expect(await closeAuditStream(database.db)).toBe(2);
    expect(await closeAuditStream(database.db)).toBeNull();
    await auditLog.record({ action: 'sign-in', operator, outcome: 'success', requestId: 'req-unstreamed' });
    expect(await database.db.selectFrom('audit_outbox').select('id').execute()).toEqual([]);
    expect(await streamedThrough(database.db)).toBeNull();
  });

  it('writes an outbox row for every entry of a bulk write that takes several statements', async () => {
    await openAuditStream(database.db);
    try {
      const last = await database.db
        .selectFrom('audit_event')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const since = Number(last?.id ?? 0);
      const entries = Array.from({ length: 1_234 }, (_, index) => ({
        action: 'sign-in' as const,
        operator,
        outcome: 'success',
        requestId: `req-bulk-${index}`,
      }));
      await recordAuditEvents(database.db, entries, clock);
      const outboxed = await database.db
        .selectFrom('audit_outbox')
        .select('entry_id')
        .where('entry_id', '>', since)
        .execute();
      expect(outboxed).toHaveLength(1_234);
    } finally {
      await closeAuditStream(database.db);
    }
  });

  it('refuses to guess whether a stream is set from a value neither database answers', () => {
    expect([true, 1].map(isStreamSet)).toEqual([true, true]);
    expect([false, 0].map(isStreamSet)).toEqual([false, false]);
    for (const unreadable of ['t', '1', null, undefined, 2])
      expect(() => isStreamSet(unreadable)).toThrow(/could not tell whether a stream is set/);
  });
});
