import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { createAuditLog } from './audit-log';
import { parseAuditFilters } from './filters';
import { migrateAuditLog } from './schema';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const ann = { id: 'op-ann', email: 'ann@example.com' };

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-log-reads');
  await migrateAuditLog(database);
});
afterAll(async () => {
  await database?.dispose();
});

const filters = (query: string) => {
  const parsed = parseAuditFilters(new URLSearchParams(query));
  if (!parsed.success) throw new Error(query);
  return parsed.filters;
};

const reads = async () =>
  (
    await database.db
      .selectFrom('audit_event')
      .select(['detail'])
      .where('action', '=', 'audit.read')
      .orderBy('id')
      .execute()
  ).map((row) => row.detail);

describe('reads of the audit log on record', () => {
  it('writes one entry per person, filter and minute: a page opened again is not a new entry', async () => {
    const clock = testClock(Date.parse('2026-11-27T10:00:05Z'));
    const auditLog = createAuditLog(database.db, {
      metrics: consoleMetrics(),
      logger: { error: () => {} },
      clock,
    });
    for (let render = 0; render < 3; render++)
      await auditLog.read('audit.read', ann, `req-${render}`, filters('group=acme'), 2);
    await auditLog.read('audit.read', ann, 'req-other', filters('action=rotate'), 5);
    await auditLog.read(
      'audit.read',
      { id: 'op-bob', email: 'bob@example.com' },
      'req-bob',
      filters('group=acme'),
      2,
    );
    expect(await reads()).toEqual(['2 rows; group=acme', '5 rows; action=rotate', '2 rows; group=acme']);
    // The next minute, the same read is on record again.
    await clock.advance(55_000);
    await auditLog.read('audit.read', ann, 'req-later', filters('group=acme'), 2);
    expect(await reads()).toHaveLength(4);
  });
});
