import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseLocation } from '@/lib/testing/console-test-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';

// The server reads its configuration from the environment once: set it before the first use.
const consoleDatabase = await createTestDatabaseLocation('sign-in-on-record');
Object.assign(process.env, {
  ...consoleDatabase.env,
  PORT: '3996',
  CONSOLE_URL: 'http://127.0.0.1:3996',
  CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
  CONSOLE_ADMIN_EMAIL: 'admin@unit.example',
  CONSOLE_ADMIN_PASSWORD: 'unit-admin-password',
  LOG_LEVEL: 'silent',
});

const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const { consoleServer } = await import('@/lib/server');
const { ensureFirstAdmin } = await import('@/lib/auth/bootstrap');
const { listAuditEvents } = await import('@/lib/audit/store');

const origin = 'http://127.0.0.1:3996';

const signIn = () =>
  handleAuthRequest(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'admin@unit.example', password: 'unit-admin-password' }),
    }),
  );

/** better-auth's `session` table is not among the console's typed tables. */
async function sessionCount(): Promise<number> {
  const { database } = await consoleServer();
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from session`.execute(
    database.db,
  );
  return Number(rows[0]?.count);
}

beforeAll(async () => {
  const { auth, database, config } = await consoleServer();
  await ensureFirstAdmin(auth, database, config);
});

afterAll(async () => {
  const { database } = await consoleServer();
  await database.close();
  await consoleDatabase.dispose();
});

describe('a sign-in the audit log cannot record', () => {
  it('does not happen: 503 audit_unavailable, no session row, no session cookie', async () => {
    const { database } = await consoleServer();
    const sessionsBefore = await sessionCount();
    const response = await whileInsertsFail(database, 'audit_event', signIn);
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('audit_unavailable');
    expect(response.headers.getSetCookie().some((cookie) => /session_token=[^;]+/.test(cookie))).toBe(false);
    expect(await sessionCount()).toBe(sessionsBefore);
  });

  it('happens once the log works again, on record as a success', async () => {
    const sessionsBefore = await sessionCount();
    const response = await signIn();
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^console\.session_token=[^;]+/);
    expect(await sessionCount()).toBe(sessionsBefore + 1);
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database, { action: 'sign-in' });
    expect(events.map((event) => [event.outcome, event.request_id])).toEqual([
      ['success', response.headers.get('x-request-id')],
    ]);
  });
});

describe('signing out and changing a password are on record before they happen', () => {
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
  const authCall = (path: string, cookie: string, body: unknown) =>
    handleAuthRequest(
      new Request(`${origin}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify(body),
      }),
    );

  it('neither signs out nor changes the password when the audit log cannot be written', async () => {
    const { database } = await consoleServer();
    const cookie = cookieOf(await signIn());
    const sessionsBefore = await sessionCount();
    const signOut = await whileInsertsFail(database, 'audit_event', () => authCall('/sign-out', cookie, {}));
    expect(signOut.status).toBe(503);
    expect(await sessionCount()).toBe(sessionsBefore);
    const change = await whileInsertsFail(database, 'audit_event', () =>
      authCall('/change-password', cookie, {
        currentPassword: 'unit-admin-password',
        newPassword: 'another-long-password',
        revokeOtherSessions: true,
      }),
    );
    expect(change.status).toBe(503);
    // The old password still signs in: nothing was changed.
    expect((await signIn()).status).toBe(200);
    const signedOut = await authCall('/sign-out', cookie, {});
    expect(signedOut.status).toBe(200);
    const { events } = await listAuditEvents(database, { action: 'sign-out' });
    expect(events.map((event) => event.outcome)).toEqual(['success']);
  });

  it('keeps what was typed as an email off the record unless it is an operator’s', async () => {
    const { database } = await consoleServer();
    const response = await handleAuthRequest(
      new Request(`${origin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ email: 'Hunter2-MySecretPassword@x.example', password: 'wrong-password-1' }),
      }),
    );
    expect(response.status).toBe(401);
    const { events } = await listAuditEvents(database, { action: 'sign-in' });
    expect(events[0]).toMatchObject({ outcome: 'invalid_email_or_password', operator_email: null });
    expect(JSON.stringify(events)).not.toMatch(/hunter2/i);
  });
});

describe('a disabled operator', () => {
  it('reads the same answer for the right password as for a wrong one; the log keeps which it was', async () => {
    const { auth, database } = await consoleServer();
    const { user } = await auth.api.createUser({
      body: { email: 'disabled@unit.example', name: 'D', password: 'a-long-enough-password', role: 'viewer' },
    });
    await database.db
      .updateTable('user')
      .set({ banned: 1 } as never)
      .where('id', '=', user.id)
      .execute();
    const attempt = (password: string) =>
      handleAuthRequest(
        new Request(`${origin}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ email: 'disabled@unit.example', password }),
        }),
      );
    const right = await attempt('a-long-enough-password');
    const wrong = await attempt('not-the-password-at-all');
    // The same answer but for its request id.
    const answer = async (response: Response) => {
      const { error } = await response.json();
      return [response.status, { ...error, requestId: undefined }];
    };
    expect(await answer(right)).toEqual(await answer(wrong));
    const { events } = await listAuditEvents(database, { operator: 'disabled@unit.example' });
    expect(events.map((event) => event.outcome)).toEqual(['invalid_email_or_password', 'banned_user']);
  });
});
