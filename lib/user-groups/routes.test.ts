import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabaseLocation } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import {
  createSqliteBackend,
  createTestKeys,
  startTestService,
  type TestBackend,
} from '@/lib/user-group-service/test-support';

// The console's routes against a real service and a real console database. The server reads its
// configuration from the environment once: set it before the first use.
const backend: TestBackend = await createSqliteBackend();
const keys = await createTestKeys(backend.database);
const service = await startTestService(backend.database);
const consoleDatabase = await createTestDatabaseLocation('console-routes');
const origin = 'http://127.0.0.1:3997';
Object.assign(process.env, {
  ...consoleDatabase.env,
  PORT: '3997',
  CONSOLE_URL: origin,
  CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
  CONSOLE_ADMIN_EMAIL: 'admin@routes.example',
  CONSOLE_ADMIN_PASSWORD: 'routes-admin-password',
  LOG_LEVEL: 'silent',
  USER_GROUP_API_URL: service.url,
  USER_GROUP_API_KEY_TESTING: keys.testing,
});

const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const { consoleServer } = await import('@/lib/server');
const { ensureFirstAdmin } = await import('@/lib/auth/bootstrap');
const { listAuditEvents } = await import('@/lib/audit/store');
const { findDirectoryEntry } = await import('@/lib/directory/store');
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const rotate = (await import('@/app/api/user-groups/[environment]/rotate/route')).POST;
const remove = (await import('@/app/api/user-groups/[environment]/delete/route')).POST;
const readAudit = (await import('@/app/api/audit/route')).GET;
const exportAudit = (await import('@/app/api/audit/export/route')).GET;

let cookie = '';

const post = (body: unknown) =>
  new Request(`${origin}/api/x`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: JSON.stringify(body),
  });
const get = (url: string) => new Request(`${origin}${url}`, { headers: { cookie } });
const noParams = { params: Promise.resolve({}) };
/** The routes of the Testing environment, which this console's key serves. */
const inTesting = { params: Promise.resolve({ environment: 'testing' }) };

async function auditWritesFail<T>(run: () => Promise<T>): Promise<T> {
  const { database } = await consoleServer();
  return whileInsertsFail(database, 'audit_event', run);
}

beforeAll(async () => {
  const { auth, database, config } = await consoleServer();
  await ensureFirstAdmin(auth, database, config);
  const signIn = await handleAuthRequest(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'admin@routes.example', password: 'routes-admin-password' }),
    }),
  );
  cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
});

afterAll(async () => {
  const { database } = await consoleServer();
  await database.close();
  await service.close();
  await backend.dispose();
  await consoleDatabase.dispose();
});

describe('user group routes fail closed without their audit entry', () => {
  it('creates no group and returns no token when the audit log cannot be written', async () => {
    const refused = await auditWritesFail(() =>
      getOrCreate(post({ user_group_id: 'audit-off-1' }), inTesting),
    );
    expect(refused.status).toBe(503);
    const body = await refused.json();
    expect(body.error.code).toBe('audit_unavailable');
    expect(JSON.stringify(body)).not.toMatch(/[0-9a-f]{64}/);
    // The service never saw the request: the group is new when asked again.
    const created = await getOrCreate(post({ user_group_id: 'audit-off-1' }), inTesting);
    expect((await created.json()).new_user_group).toBe(true);
  });

  it('neither rotates nor deletes when the audit log cannot be written', async () => {
    const { user_group } = await (
      await getOrCreate(post({ user_group_id: 'audit-off-2' }), inTesting)
    ).json();
    const token = user_group.token as string;
    expect((await auditWritesFail(() => rotate(post({ current_token: token }), inTesting))).status).toBe(503);
    expect(
      (
        await auditWritesFail(() =>
          remove(post({ user_group_id: 'audit-off-2', current_token: token }), inTesting),
        )
      ).status,
    ).toBe(503);
    // The token still works: it was neither rotated nor deleted.
    const again = await (await getOrCreate(post({ user_group_id: 'audit-off-2' }), inTesting)).json();
    expect(again).toMatchObject({ new_user_group: false, user_group: { token } });
  });

  it('records each action once, settled with its outcome', async () => {
    const { user_group } = await (await getOrCreate(post({ user_group_id: 'audited-1' }), inTesting)).json();
    const rotated = await rotate(post({ current_token: user_group.token }), inTesting);
    expect(rotated.status).toBe(200);
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database, { group: 'audited-1' });
    expect(events.map((event) => [event.action, event.outcome])).toEqual([
      ['rotate', 'success'],
      ['get-or-create', 'success'],
    ]);
  });
});

describe('environments', () => {
  it('refuses an id or a name that is not well-formed Unicode before anything is recorded or sent', async () => {
    for (const body of [{ user_group_id: 'x\ud800y' }, { user_group_id: 'ok-id', name: 'bad\udbff' }]) {
      const refused = await getOrCreate(post(body), inTesting);
      expect(refused.status).toBe(400);
      const { error } = await refused.json();
      expect(error.code).toBe('invalid_request');
      expect(Object.values(error.fields).join()).toMatch(/well-formed Unicode/);
    }
    expect(await findDirectoryEntry((await consoleServer()).database.db, 'Testing', 'ok-id')).toBeNull();
  });

  it('acts in the environment its URL names, and says so when that one has no key', async () => {
    const inCustomer = { params: Promise.resolve({ environment: 'customer' }) };
    const refused = await getOrCreate(post({ user_group_id: 'env-1' }), inCustomer);
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toMatchObject({
      code: 'environment_not_configured',
      message: expect.stringContaining('USER_GROUP_API_KEY_CUSTOMER'),
    });
    const unknown = await getOrCreate(post({ user_group_id: 'env-1' }), {
      params: Promise.resolve({ environment: 'production' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('keeps the directory and the audit log by environment', async () => {
    const { user_group } = await (
      await getOrCreate(post({ user_group_id: 'env-2', name: 'Env Two', mapping: { s: 'w' } }), inTesting)
    ).json();
    const { database } = await consoleServer();
    expect(await findDirectoryEntry(database.db, 'Testing', 'env-2')).toMatchObject({
      name: 'Env Two',
      mapping: { s: 'w' },
      createdBy: 'admin@routes.example',
    });
    await remove(post({ user_group_id: 'env-2', current_token: user_group.token }), inTesting);
    expect((await findDirectoryEntry(database.db, 'Testing', 'env-2'))?.deletedBy).toBe(
      'admin@routes.example',
    );
    const { events } = await listAuditEvents(database, {
      group: 'env-2',
      environment: 'Testing',
    });
    expect(events.map((event) => [event.action, event.environment])).toEqual([
      ['delete', 'Testing'],
      ['get-or-create', 'Testing'],
    ]);
  });
});

describe('reading the audit log is on record', () => {
  it('records a read and an export with their filters and row counts', async () => {
    expect((await readAudit(get('/api/audit?action=rotate'), noParams)).status).toBe(200);
    const { database, auditLog } = await consoleServer();
    // The export's settlement (written once its stream has ended), kept to be awaited below.
    const settlements: Promise<void>[] = [];
    const exporting = auditLog.exporting;
    const spy = vi.spyOn(auditLog, 'exporting').mockImplementation(async (...args) => {
      const sent = await exporting(...args);
      return (rows) => {
        const settled = sent(rows);
        settlements.push(settled);
        return settled;
      };
    });
    try {
      const exported = await exportAudit(get('/api/audit/export?group=audited-1'), noParams);
      expect(exported.status).toBe(200);
      // The entry is written before the first row, and completed with the rows sent at the end.
      expect((await exported.text()).split('\r\n').filter(Boolean)).toHaveLength(3);
    } finally {
      spy.mockRestore();
    }
    expect(settlements).toHaveLength(1);
    await Promise.all(settlements);
    const { events } = await listAuditEvents(database, { operator: 'admin@routes.example' });
    const reads = events.filter((event) => event.action.startsWith('audit.'));
    expect(reads.map((event) => [event.action, event.detail])).toEqual([
      ['audit.export', '2 rows; group=audited-1'],
      ['audit.read', '1 row; action=rotate'],
    ]);
  });

  it('keeps a token pasted into a filter as its fingerprint only', async () => {
    const token = 'ab12'.repeat(16);
    expect((await readAudit(get(`/api/audit?group=${token}`), noParams)).status).toBe(200);
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database, { action: 'audit.read' });
    expect(events[0]?.detail).toMatch(/^0 rows; group=fingerprint%3A[0-9a-f]{12}$/);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('refuses a read from another site: a link elsewhere writes no entry in the name of whoever follows it', async () => {
    const { database } = await consoleServer();
    const before = (await listAuditEvents(database, {})).total;
    for (const site of ['cross-site', 'same-site']) {
      const refused = await exportAudit(
        new Request(`${origin}/api/audit/export`, { headers: { cookie, 'sec-fetch-site': site } }),
        noParams,
      );
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('cross_site_request');
    }
    expect((await listAuditEvents(database, {})).total).toBe(before);
    const typed = await exportAudit(
      new Request(`${origin}/api/audit/export`, { headers: { cookie, 'sec-fetch-site': 'none' } }),
      noParams,
    );
    expect(typed.status).toBe(200);
  });

  it('refuses an export it cannot record', async () => {
    const refused = await auditWritesFail(() => exportAudit(get('/api/audit/export'), noParams));
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toContain('audited-1');
  });
});
