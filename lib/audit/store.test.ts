import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { parseAuditFilters } from './filters';
import { tokenFingerprint } from './fingerprint';
import { migrateAuditLog } from './schema';
import { type AuditEntry, exportAuditEvents, listAuditEvents, recordAuditEvent } from './store';

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
});
