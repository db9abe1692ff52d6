import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { parseAuditFilters } from './filters';
import { tokenFingerprint } from './fingerprint';
import { migrateAuditLog } from './schema';
import {
  type AuditEntry,
  exportAuditEvents,
  listAuditEvents,
  listAuditItems,
  recordAuditEvent,
} from './store';

let database: Awaited<ReturnType<typeof openTestConsoleDatabase>>;
const ann = { id: 'op-ann', email: 'ann@example.com' };
const bob = { id: 'op-bob', email: 'bob@example.com' };

function entry(overrides: Partial<AuditEntry>, minute: number): AuditEntry {
  return {
    action: 'get-or-create',
    operator: ann,
    outcome: 'success',
    requestId: `req-${minute}`,
    at: new Date(Date.UTC(2026, 10, 21, 10, minute)),
    ...overrides,
  };
}

beforeAll(async () => {
  database = await openTestConsoleDatabase('audit-store');
  await migrateAuditLog(database);
  await migrateAuditLog(database); // idempotent
  const entries: AuditEntry[] = [
    entry({ userGroupId: 'acme', userGroupName: 'Acme', token: 'token-acme-1' }, 0),
    entry({ userGroupId: 'globex', userGroupName: 'Globex', token: 'token-globex', operator: bob }, 1),
    entry({ action: 'rotate', userGroupId: 'acme', token: 'token-acme-2', previousToken: 'token-acme-1' }, 2),
    entry({ userGroupId: 'acme', userGroupName: 'Acme Corp', token: 'token-acme-2', operator: bob }, 3),
    entry({ userGroupId: 'initech', userGroupName: 'Initech', token: 'token-initech' }, 4),
    entry({ action: 'delete', userGroupId: 'initech', previousToken: 'token-initech' }, 5),
    entry({ userGroupId: 'hooli', outcome: 'upstream_unreachable' }, 6),
    entry(
      {
        action: 'sign-in',
        operator: { id: null, email: 'mallory@example.com' },
        outcome: 'invalid_email_or_password',
      },
      7,
    ),
  ];
  for (const item of entries) await recordAuditEvent(database.db, item);
});

afterAll(async () => {
  await database?.dispose();
});

function filters(params: Record<string, string>) {
  const parsed = parseAuditFilters(new URLSearchParams(params));
  if (!parsed.success) throw new Error('bad filters');
  return parsed.filters;
}

describe('audit store', () => {
  it('stores fingerprints, never tokens', async () => {
    const rows = await database.db.selectFrom('audit_event').selectAll().execute();
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/token-acme|token-globex|token-initech/);
    const rotation = rows.find((row) => row.action === 'rotate');
    expect(rotation?.token_fingerprint).toBe(tokenFingerprint('token-acme-2'));
    expect(rotation?.previous_token_fingerprint).toBe(tokenFingerprint('token-acme-1'));
  });

  it('lists newest first with totals and pages', async () => {
    const page = await listAuditEvents(database.db, filters({}), 3);
    expect(page.total).toBe(8);
    expect(page.pageCount).toBe(3);
    expect(page.events.map((event) => event.request_id)).toEqual(['req-7', 'req-6', 'req-5']);
    const last = await listAuditEvents(database.db, filters({ page: '99' }), 3);
    expect(last.page).toBe(3);
    expect(last.events.map((event) => event.request_id)).toEqual(['req-1', 'req-0']);
  });

  it('filters by person, action, group and time; the export returns the same rows', async () => {
    const chosen = filters({
      operator: 'BOB',
      action: 'get-or-create',
      from: '2026-11-21T10:01',
      to: '2026-11-21T10:03',
    });
    const page = await listAuditEvents(database.db, chosen);
    expect(page.events.map((event) => event.request_id)).toEqual(['req-3', 'req-1']);
    const exported = await exportAuditEvents(database.db, chosen);
    expect(exported).toEqual(page.events);
    const group = await listAuditEvents(database.db, filters({ group: 'acme' }));
    expect(group.events.map((event) => event.request_id)).toEqual(['req-3', 'req-2', 'req-0']);
  });

  it('finds a group by part of its id, ignoring case; a group page asks for the id exactly', async () => {
    await recordAuditEvent(database.db, entry({ userGroupId: 'ACME-west', requestId: 'req-west' }, 8));
    try {
      const part = await listAuditEvents(database.db, filters({ group: 'cMe' }));
      expect(part.events.map((event) => event.request_id)).toEqual(['req-west', 'req-3', 'req-2', 'req-0']);
      const exact = await listAuditEvents(database.db, { ...filters({ group: 'acme' }), exactGroup: true });
      expect(exact.events.map((event) => event.request_id)).toEqual(['req-3', 'req-2', 'req-0']);
      // LIKE's wildcards are taken literally.
      expect((await listAuditEvents(database.db, filters({ group: 'a%e' }))).total).toBe(0);
      expect((await listAuditEvents(database.db, filters({ group: 'ac_e' }))).total).toBe(0);
    } finally {
      await database.db.deleteFrom('audit_event').where('request_id', '=', 'req-west').execute();
    }
  });
});

describe('the audit page listing', () => {
  it('folds the entries sharing a request id (a bulk job) into one item, paged by items', async () => {
    const job = 'job-0001';
    const jobEntries: AuditEntry[] = [
      entry({ action: 'bulk.rotate', requestId: job, outcome: 'failed_rows', detail: 'pasted tokens' }, 10),
      ...[11, 12, 13].map((minute) =>
        entry(
          { action: 'rotate', requestId: job, userGroupId: `bulk-${minute}`, detail: 'bulk job' },
          minute,
        ),
      ),
      entry({ action: 'rotate', requestId: job, userGroupId: 'bulk-14', outcome: 'not_found' }, 14),
    ];
    for (const item of jobEntries) await recordAuditEvent(database.db, item);
    await recordAuditEvent(database.db, entry({ userGroupId: 'after-the-job', requestId: 'req-after' }, 15));
    try {
      const first = await listAuditItems(database.db, filters({}), 2);
      expect(first.total).toBe(8 + 6);
      expect(first.pageCount).toBe(5); // 8 single entries, the job and the one after it: 10 items
      expect(first.items.map((item) => item.kind)).toEqual(['entry', 'request']);
      const folded = first.items[1];
      if (folded?.kind !== 'request') throw new Error('not folded');
      expect(folded.requestId).toBe(job);
      expect(folded.entries).toBe(5);
      expect(folded.events.map((event) => event.user_group_id)).toEqual([
        'bulk-14',
        'bulk-13',
        'bulk-12',
        'bulk-11',
        null,
      ]);
      expect(folded.outcomes).toEqual(
        expect.arrayContaining([
          { action: 'rotate', outcome: 'success', entries: 3 },
          { action: 'rotate', outcome: 'not_found', entries: 1 },
          { action: 'bulk.rotate', outcome: 'failed_rows', entries: 1 },
        ]),
      );
      const second = await listAuditItems(database.db, filters({ page: '2' }), 2);
      expect(
        second.items.map((item) => (item.kind === 'entry' ? item.event.request_id : item.requestId)),
      ).toEqual(['req-7', 'req-6']);
      // Filters apply inside the fold too.
      const failed = await listAuditItems(database.db, filters({ group: 'bulk-14' }));
      expect(failed.items).toHaveLength(1);
      expect(failed.items[0]?.kind).toBe('entry');
    } finally {
      await database.db.deleteFrom('audit_event').where('request_id', 'in', [job, 'req-after']).execute();
    }
  });
});
