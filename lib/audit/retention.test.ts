import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const quiet = { metrics: consoleMetrics(), logger: { error: () => {} } };

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
});
afterAll(async () => {
  await database?.dispose();
});

const remaining = async () =>
  await database.db
    .selectFrom('audit_event')
    .select(['request_id', 'action', 'detail'])
    .orderBy('id')
    .execute();

describe('audit retention', () => {
  it('prunes only what is older than the days set, in batches, and says so on record before it runs', async () => {
    await recordAuditEvents(database.db, [
      ...Array.from({ length: 4_500 }, (_, index) => entry(`old-${index}`, 400)),
      entry('kept-89', 89),
      entry('kept-today', 0),
    ]);
    const auditLog = createAuditLog(database.db, quiet);
    expect(await pruneOnce({ db: database.db, auditLog, days: 90, clock, log: () => {} })).toBe(4_500);
    const left = await remaining();
    expect(left.map((row) => row.request_id).slice(0, 2)).toEqual(['kept-89', 'kept-today']);
    expect(left.at(-1)).toMatchObject({
      action: 'audit.prune',
      detail: '4,500 entries before 2026-08-29T12:00:00.000Z pruned (AUDIT_RETENTION_DAYS=90)',
    });
    // Nothing old is left: a second pass (another console's) writes nothing.
    expect(await pruneOnce({ db: database.db, auditLog, days: 90, clock, log: () => {} })).toBe(0);
    expect(await remaining()).toHaveLength(3);
  });

  it('prunes nothing when the pruning cannot be put on record', async () => {
    await recordAuditEvents(database.db, [entry('old-unrecorded', 400)]);
    const auditLog = { audited: () => Promise.reject(new Error('the log is unavailable')) };
    await expect(pruneOnce({ db: database.db, auditLog, days: 90, clock, log: () => {} })).rejects.toThrow();
    expect((await remaining()).map((row) => row.request_id)).toContain('old-unrecorded');
  });
});
