/**
 * A page's read of the log (the audit page, a group's history) on record through lib/audit: what
 * was read, and, when the entry cannot be written, no page (audit_unavailable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { createAuditLog } from './audit-log';
import { migrateAuditLog } from './schema';
import { CSV_PIECE_ROWS, exportAuditLog, recordAuditRead } from './server';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const ann = { id: 'op-ann', email: 'ann@example.com' };

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-server-reads');
  await migrateAuditLog(database);
});
afterAll(async () => {
  await database?.dispose();
});

const clock = testClock(Date.parse('2026-11-27T10:00:05Z'));
const server = () => ({
  auditLog: createAuditLog(database.db, { metrics: consoleMetrics(), logger: { error: () => {} }, clock }),
  database,
  clock,
});

describe("a page's read of the audit log", () => {
  it('is on record: who read, how many rows, which filters, and a link from another site', async () => {
    await recordAuditRead(server(), ann, {
      filters: { group: 'acme', reads: true },
      rows: 3,
      fromAnotherSite: true,
    });
    const [entry] = await database.db
      .selectFrom('audit_event')
      .select(['action', 'operator_email', 'outcome', 'detail'])
      .where('action', '=', 'audit.read')
      .execute();
    expect(entry).toMatchObject({ action: 'audit.read', operator_email: ann.email, outcome: 'success' });
    expect(entry?.detail).toMatch(/^3 rows; .*group=acme.*; opened from a link on another site$/);
  });

  it('fails closed: no entry, no page', async () => {
    await expect(
      whileInsertsFail(database, 'audit_event', () =>
        recordAuditRead(
          server(),
          { id: 'op-bob', email: 'bob@example.com' },
          { filters: { reads: false }, rows: 0 },
        ),
      ),
    ).rejects.toMatchObject({ code: 'audit_unavailable' });
  });
});

describe('an export of the audit log', () => {
  it('streams its CSV in pieces small enough to be born in V8’s young generation, every row once', async () => {
    // 2,500 entries as the console writes them: batches of 1,000 rows, about 150 bytes each in CSV.
    const entries = Array.from({ length: 2_500 }, (_, i) => ({
      at: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 1_000).toISOString(),
      operator_id: 'op-ann',
      operator_email: ann.email,
      action: 'rotate',
      environment: 'Customer',
      user_group_id: `acme-${i}`,
      user_group_name: `Acme ${i} Ltd`,
      outcome: 'success',
      request_id: `0f2c5f4e-1111-2222-3333-${String(i).padStart(12, '0')}`,
      token_fingerprint: 'abcd1234abcd',
      previous_token_fingerprint: '1234abcd1234',
      detail: null,
    }));
    for (let start = 0; start < entries.length; start += 500) {
      await database.db
        .insertInto('audit_event')
        .values(entries.slice(start, start + 500))
        .execute();
    }
    const answer = await exportAuditLog({
      request: new Request('http://console.test/api/audit/export?action=rotate'),
      operator: ann,
      requestId: 'export-1',
      server: server(),
    });
    const pieces: Uint8Array[] = [];
    for await (const piece of answer.body as unknown as AsyncIterable<Uint8Array>) pieces.push(piece);
    // V8 makes a string of more than 128 kB in its old generation, where it waits for a full
    // collection: a batch's text in one piece (1,000 rows) was larger.
    expect(Math.max(...pieces.map((piece) => piece.byteLength))).toBeLessThan(128 * 1024);
    expect(pieces.length).toBeGreaterThanOrEqual(2_500 / CSV_PIECE_ROWS);
    const lines = new TextDecoder().decode(Buffer.concat(pieces)).split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^"time \(UTC\)","operator"/);
    expect(lines.filter((line) => line.startsWith('"time'))).toHaveLength(1);
    expect(lines).toHaveLength(1 + entries.length);
    expect(new Set(lines.slice(1).map((line) => line.split('","')[5]))).toEqual(
      new Set(entries.map((entry) => entry.user_group_id)),
    );
  });
});
