import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { parseAuditFilters } from './filters';
import { matchesNothing, resolveAuditFilters } from './query';
import { migrateAuditLog } from './schema';
import { type AuditEntry, exportAuditRows, recordAuditEvents } from './store';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const minute = 60_000;
const start = Date.UTC(2026, 5, 1);

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-query-range');
  await migrateAuditLog(database);
  await migrateDirectory(database);
  // 3,000 entries a minute apart: 2026-06-01 00:00 to 2026-06-03 01:59.
  const entries = Array.from(
    { length: 3_000 },
    (_, index): AuditEntry => ({
      action: 'rotate',
      operator: null,
      outcome: 'success',
      requestId: `req-${index}`,
      at: new Date(start + index * minute),
    }),
  );
  await recordAuditEvents(database.db, entries, clock);
});
afterAll(async () => {
  await database?.dispose();
});

const rangeFilters = () => {
  const parsed = parseAuditFilters(new URLSearchParams('from=2026-06-01T10:00&to=2026-06-02T10:00'));
  if (!parsed.success) throw new Error('filters');
  return parsed.filters;
};

describe('a time range walked by keyset', () => {
  it('bounds a page deep inside the range by the cursor alone, not by the range end as well', async () => {
    const where = await resolveAuditFilters(database, rangeFilters());
    if (where === matchesNothing) throw new Error('the range matches entries');
    const compiled = where(database.db.selectFrom('audit_event').select('id'), { below: 1_000 }).compile();
    // One upper bound on the key: given the range's end and the cursor, SQLite walked down from the
    // end to the cursor on every batch (a 1M export with both bounds ran past 8 minutes).
    expect(compiled.sql.match(/"id" <= /g)).toHaveLength(1);
    expect(compiled.sql).not.toMatch(/"id" < /);
    expect(compiled.parameters).toContain(999);
  });

  it('exports exactly the range, batch after batch, newest first', async () => {
    const ids: number[] = [];
    const times: string[] = [];
    for await (const batch of exportAuditRows(database, rangeFilters(), Number.POSITIVE_INFINITY, 100))
      for (const row of batch) {
        ids.push(row.id);
        times.push(row.at);
      }
    // 10:00 on the 1st up to (not including) 10:01 on the 2nd: 24 hours and a minute of entries.
    expect(ids).toHaveLength(24 * 60 + 1);
    expect(times[0]).toBe('2026-06-02T10:00:00.000Z');
    expect(times.at(-1)).toBe('2026-06-01T10:00:00.000Z');
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});
