import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { migrateDirectory } from '@/lib/directory/schema';
import { recordGetOrCreate } from '@/lib/directory/store';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { parseAuditFilters } from './filters';
import { tokenFingerprint } from './fingerprint';
import { listAuditItems } from './listing';
import { migrateAuditLog } from './schema';
import {
  AUDIT_COUNT_LIMIT,
  type AuditEntry,
  exportAuditRows,
  listAuditEvents,
  recordAuditEvent,
  recordAuditEvents,
} from './store';

/** What stamps what the entries here do not: a moment far from today's, so a real-clock read shows. */
const clock = testClock();

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
  await migrateDirectory(database);
  // The operators, as better-auth's table holds them (the columns a person filter reads).
  await sql`create table "user" (id text primary key, email text not null)`.execute(database.db);
  await database.db
    .insertInto('user')
    .values([ann, bob] as never)
    .execute();
  // The groups the directory knows: a part of an id is looked up there.
  for (const id of ['acme', 'ACME-west', 'globex', 'initech', 'hooli'])
    await recordGetOrCreate(
      database.db,
      {
        environment: 'Customer',
        operatorEmail: ann.email,
        isNew: true,
        group: { provided_id: id, name: id, team_id: 1, token: `token-${id}` },
        mappingSent: undefined,
      },
      clock,
    );
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
  for (const item of entries) await recordAuditEvent(database.db, item, clock);
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

  it('lists newest first with totals, paged by keyset both ways', async () => {
    const ids = (page: { events: { request_id: string }[] }) => page.events.map((event) => event.request_id);
    const first = await listAuditEvents(database, filters({}), 3);
    expect(first.total).toBe(8);
    expect(first.totalIsLowerBound).toBe(false);
    expect(ids(first)).toEqual(['req-7', 'req-6', 'req-5']);
    expect(first.previousAfter).toBeNull();
    const second = await listAuditEvents(database, { ...filters({}), before: first.nextBefore ?? 0 }, 3);
    expect(ids(second)).toEqual(['req-4', 'req-3', 'req-2']);
    const last = await listAuditEvents(database, { ...filters({}), before: second.nextBefore ?? 0 }, 3);
    expect(ids(last)).toEqual(['req-1', 'req-0']);
    expect(last.nextBefore).toBeNull();
    const back = await listAuditEvents(database, { ...filters({}), after: last.previousAfter ?? 0 }, 3);
    expect(ids(back)).toEqual(ids(second));
    const newest = await listAuditEvents(database, { ...filters({}), after: back.previousAfter ?? 0 }, 3);
    expect(ids(newest)).toEqual(ids(first));
    expect(newest.previousAfter).toBeNull();
  });

  it('lists changes only unless reads are asked for, or an action is', async () => {
    await recordAuditEvent(database.db, entry({ action: 'show-token', requestId: 'req-look' }, 20), clock);
    try {
      const requests = async (query: Record<string, string>) =>
        (await listAuditEvents(database, filters(query))).events.map((event) => event.request_id);
      expect(await requests({})).not.toContain('req-look');
      expect(await requests({ reads: 'include' })).toContain('req-look');
      expect(await requests({ action: 'show-token' })).toEqual(['req-look']);
    } finally {
      await database.db.deleteFrom('audit_event').where('request_id', '=', 'req-look').execute();
    }
  });

  it('counts up to a bound, and says when there are more', async () => {
    const many = Array.from({ length: AUDIT_COUNT_LIMIT + 1 }, (_, index) =>
      entry({ action: 'sign-out', requestId: `many-${index}` }, 30),
    );
    await recordAuditEvents(database.db, many, clock);
    try {
      const page = await listAuditEvents(database, filters({ action: 'sign-out' }), 2);
      expect(page).toMatchObject({ total: AUDIT_COUNT_LIMIT, totalIsLowerBound: true });
      expect(page.events).toHaveLength(2);
    } finally {
      await database.db.deleteFrom('audit_event').where('action', '=', 'sign-out').execute();
    }
  });

  it('filters by person, action, group and time; the export returns the same rows', async () => {
    const chosen = filters({
      operator: 'BOB',
      action: 'get-or-create',
      from: '2026-11-21T10:01',
      to: '2026-11-21T10:03',
    });
    const page = await listAuditEvents(database, chosen);
    expect(page.events.map((event) => event.request_id)).toEqual(['req-3', 'req-1']);
    const exported = [];
    for await (const batch of exportAuditRows(database, chosen, Number.POSITIVE_INFINITY, 1))
      exported.push(...batch);
    expect(exported).toEqual(page.events);
    // A part of an email that is no operator's matches nothing, without reading the log.
    expect((await listAuditEvents(database, filters({ operator: 'nobody' }))).events).toEqual([]);
    const group = await listAuditEvents(database, filters({ group: 'acme' }));
    expect(group.events.map((event) => event.request_id)).toEqual(['req-3', 'req-2', 'req-0']);
  });

  it('finds a group by part of its id, ignoring case; a group page asks for the id exactly', async () => {
    const ids = (page: { events: { request_id: string }[] }) => page.events.map((event) => event.request_id);
    await recordAuditEvent(database.db, entry({ userGroupId: 'ACME-west', requestId: 'req-west' }, 8), clock);
    try {
      const part = await listAuditEvents(database, filters({ group: 'cMe' }));
      expect(part.events.map((event) => event.request_id)).toEqual(['req-west', 'req-3', 'req-2', 'req-0']);
      const exact = await listAuditEvents(database, { ...filters({ group: 'acme' }), exactGroup: true });
      expect(exact.events.map((event) => event.request_id)).toEqual(['req-3', 'req-2', 'req-0']);
      // LIKE's wildcards are taken literally.
      expect((await listAuditEvents(database, filters({ group: 'a%e' }))).total).toBe(0);
      expect((await listAuditEvents(database, filters({ group: 'ac_e' }))).total).toBe(0);
      // Under three characters, only a whole id: a trigram index cannot answer less.
      expect((await listAuditEvents(database, filters({ group: 'cm' }))).total).toBe(0);
      // An id the directory never recorded is found whole.
      await recordAuditEvent(
        database.db,
        entry({ userGroupId: 'never-seen', requestId: 'req-unseen' }, 9),
        clock,
      );
      expect(ids(await listAuditEvents(database, filters({ group: 'never-seen' })))).toEqual(['req-unseen']);
    } finally {
      await database.db
        .deleteFrom('audit_event')
        .where('request_id', 'in', ['req-west', 'req-unseen'])
        .execute();
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
    for (const item of jobEntries) await recordAuditEvent(database.db, item, clock);
    await recordAuditEvent(
      database.db,
      entry({ userGroupId: 'after-the-job', requestId: 'req-after' }, 15),
      clock,
    );
    try {
      const first = await listAuditItems(database, filters({}), 2);
      expect(first.total).toBe(8 + 6);
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
      const lines = (page: { items: typeof first.items }) =>
        page.items.map((item) => (item.kind === 'entry' ? item.event.request_id : item.requestId));
      // 8 single entries, the job and the one after it: 10 lines, 5 pages of 2.
      const pages = [first];
      while (pages.at(-1)?.nextBefore)
        pages.push(
          await listAuditItems(database, { ...filters({}), before: pages.at(-1)?.nextBefore ?? 0 }, 2),
        );
      expect(pages.map(lines)).toEqual([
        ['req-after', job],
        ['req-7', 'req-6'],
        ['req-5', 'req-4'],
        ['req-3', 'req-2'],
        ['req-1', 'req-0'],
      ]);
      // Newer, from the second page: the job's older entries do not make it a line of its own again.
      const back = await listAuditItems(database, { ...filters({}), after: pages[1]?.previousAfter ?? 0 }, 2);
      expect(lines(back)).toEqual(['req-after', job]);
      expect(back.previousAfter).toBeNull();
      // A job whose entries straddle a page's end is one line, on the page of its newest entry.
      await recordAuditEvent(database.db, entry({ action: 'bulk.download', requestId: job }, 16), clock);
      const straddling = await listAuditItems(database, filters({}), 1);
      expect(lines(straddling)).toEqual([job]);
      const next = await listAuditItems(database, { ...filters({}), before: straddling.nextBefore ?? 0 }, 3);
      expect(lines(next)).toEqual(['req-after', 'req-7', 'req-6']);
      // Filters apply inside the fold too.
      const failed = await listAuditItems(database, filters({ group: 'bulk-14' }));
      expect(failed.items).toHaveLength(1);
      expect(failed.items[0]?.kind).toBe('entry');
    } finally {
      await database.db.deleteFrom('audit_event').where('request_id', 'in', [job, 'req-after']).execute();
    }
  });
});
