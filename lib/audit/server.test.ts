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
import { recordAuditRead } from './server';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const ann = { id: 'op-ann', email: 'ann@example.com' };

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-server-reads');
  await migrateAuditLog(database);
});
afterAll(async () => {
  await database?.dispose();
});

const server = () => ({
  auditLog: createAuditLog(database.db, {
    metrics: consoleMetrics(),
    logger: { error: () => {} },
    clock: testClock(Date.parse('2026-11-27T10:00:05Z')),
  }),
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
