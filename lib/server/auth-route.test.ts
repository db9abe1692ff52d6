import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabaseLocation } from '@/lib/testing/console-test-database';

// The server reads its configuration from the environment once: set it before the first use.
const consoleDatabase = await createTestDatabaseLocation('auth-route');
Object.assign(process.env, {
  ...consoleDatabase.env,
  PORT: '3999',
  CONSOLE_URL: 'http://127.0.0.1:3999',
  CONSOLE_SIGN_IN_RATE_LIMIT: '3/60',
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
const { PEER_ADDRESS_HEADER } = await import('@/lib/config/trusted-proxies');

const origin = 'http://127.0.0.1:3999';

async function auditRowCount(): Promise<number> {
  const { database } = await consoleServer();
  const { count } = await database.db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

function authRequest(endpoint: string, body: unknown, headers: Record<string, string> = {}) {
  return new Request(`${origin}/api/auth${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify(body),
  });
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

describe('the /api/auth handler', () => {
  it('signs in with the right password, audits it, and sets an HttpOnly SameSite=Lax cookie', async () => {
    const response = await handleAuthRequest(
      authRequest(
        '/sign-in/email',
        { email: 'admin@unit.example', password: 'unit-admin-password' },
        {
          'x-forwarded-for': '10.0.0.1',
        },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^console\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=43200/);
    expect(cookie).not.toMatch(/Secure/);
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database, { action: 'sign-in' });
    expect(events[0]).toMatchObject({
      operator_email: 'admin@unit.example',
      outcome: 'success',
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('answers in the console’s words and keeps the session token out of every body', async () => {
    const { auth } = await consoleServer();
    await auth.api.createUser({
      body: { email: 'words@unit.example', name: 'Words', password: 'words-password-1', role: 'viewer' },
    });
    const from = (n: number) => ({ [PEER_ADDRESS_HEADER]: `198.51.100.${120 + n}` });
    const libraryWords = /Invalid email or password|Invalid password|INVALID_|"token"/;

    const wrong = await handleAuthRequest(
      authRequest('/sign-in/email', { email: 'words@unit.example', password: 'not-it' }, from(0)),
    );
    expect(wrong.status).toBe(401);
    const wrongText = await wrong.text();
    expect(wrongText).not.toMatch(libraryWords);
    expect(JSON.parse(wrongText)).toEqual({
      error: {
        code: 'unauthenticated',
        message:
          'The email or the password is wrong (or this operator was disabled: ask an admin of the console).',
        requestId: wrong.headers.get('x-request-id'),
      },
    });

    const right = await handleAuthRequest(
      authRequest('/sign-in/email', { email: 'words@unit.example', password: 'words-password-1' }, from(1)),
    );
    expect(right.status).toBe(200);
    const rightText = await right.text();
    expect(rightText).not.toMatch(libraryWords);
    expect(Object.keys(JSON.parse(rightText))).not.toContain('user');
    const cookie = (right.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^console\.session_token=/);
    // Nor is the token anywhere in the body under another name.
    const token = decodeURIComponent(cookie.split('=')[1] ?? '').split('.')[0] ?? '';
    expect(token.length).toBeGreaterThan(10);
    expect(rightText).not.toContain(token);

    const notCurrent = await handleAuthRequest(
      authRequest(
        '/change-password',
        { currentPassword: 'not-it', newPassword: 'words-password-2' },
        { cookie, ...from(2) },
      ),
    );
    expect(notCurrent.status).toBe(400);
    const notCurrentText = await notCurrent.text();
    expect(notCurrentText).not.toMatch(libraryWords);
    expect(JSON.parse(notCurrentText).error).toMatchObject({
      code: 'invalid_request',
      message: 'The current password is wrong.',
      fields: { currentPassword: 'is not your current password' },
    });

    const changed = await handleAuthRequest(
      authRequest(
        '/change-password',
        { currentPassword: 'words-password-1', newPassword: 'words-password-2' },
        { cookie, ...from(3) },
      ),
    );
    expect(changed.status).toBe(200);
    const changedText = await changed.text();
    // The new session's token (a password change replaces the session) is the cookie's alone.
    expect(changedText).not.toMatch(libraryWords);
    const newCookie = (changed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(newCookie).toMatch(/^console\.session_token=/);
    expect(changedText).not.toContain(decodeURIComponent(newCookie.split('=')[1] ?? '').split('.')[0]);

    const signedOut = await handleAuthRequest(
      authRequest('/sign-out', {}, { cookie: newCookie, ...from(4) }),
    );
    expect(signedOut.status).toBe(200);
    expect(await signedOut.json()).toEqual({ success: true });
  });

  it('limits sign-in attempts per email whatever X-Forwarded-For claims, with one audit entry per window', async () => {
    // An operator's email: what is typed for any other stays off the record (it may be a password).
    const { auth } = await consoleServer();
    await auth.api.createUser({
      body: { email: 'target@unit.example', name: 'Target', password: 'target-password-1', role: 'viewer' },
    });
    const attempt = (n: number) =>
      handleAuthRequest(
        authRequest(
          '/sign-in/email',
          { email: 'Target@Unit.example', password: 'guess' },
          { 'x-forwarded-for': `203.0.113.${n}`, [PEER_ADDRESS_HEADER]: `198.51.100.${n}` },
        ),
      );
    const statuses = [];
    for (let n = 0; n < 8; n++) statuses.push((await attempt(n)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    const limited = await attempt(9);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('rate_limited');
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database, { operator: 'target@unit.example' });
    expect(events.map((event) => event.outcome)).toEqual([
      'rate_limited',
      'invalid_email_or_password',
      'invalid_email_or_password',
      'invalid_email_or_password',
    ]);
  });

  it('counts a client by its socket address, not the X-Forwarded-For it sends, across emails', async () => {
    const statuses = [];
    for (let n = 0; n < 5; n++) {
      const response = await handleAuthRequest(
        authRequest(
          '/sign-in/email',
          { email: `spray${n}@unit.example`, password: 'guess' },
          { 'x-forwarded-for': `192.0.2.${n}`, [PEER_ADDRESS_HEADER]: '198.51.100.200' },
        ),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('refuses a form-encoded sign-in (415), which would carry no email the limiter reads', async () => {
    const form = (n: number) =>
      new Request(`${origin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin,
          'x-forwarded-for': `203.0.113.${n}`,
        },
        body: new URLSearchParams({ email: 'admin@unit.example', password: `guess-${n}` }),
      });
    const statuses = [];
    for (let n = 0; n < 8; n++) statuses.push((await handleAuthRequest(form(n))).status);
    expect(statuses).toEqual(Array(8).fill(415));
  });

  it('refuses a 20 MB body with 413, keeping at most 1 MiB and dropping at most 8 MiB more', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 20 * 1024 * 1024) return controller.close();
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const rssBefore = process.memoryUsage().rss;
    const response = await handleAuthRequest(
      new Request(`${origin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    // The rest is read and dropped (a lingering close: the client then hears the 413), up to 8 MiB.
    expect(pulled).toBeLessThan((1 + 8) * 1024 * 1024 + 4 * 64 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(10 * 1024 * 1024);
  });

  it.each([
    ['/sign-up/email', { email: 'new@unit.example', password: 'new-password-123', name: 'New' }],
    [
      '/admin/create-user',
      { email: 'new@unit.example', password: 'new-password-123', name: 'New', role: 'admin' },
    ],
    ['/admin/set-role', { userId: 'x', role: 'admin' }],
    ['/update-user', { name: 'x' }],
    ['/list-sessions', {}],
  ])('answers 404 for %s, which the console does not use', async (endpoint, body) => {
    const response = await handleAuthRequest(authRequest(endpoint, body));
    expect(response.status).toBe(404);
  });

  it('answers 404 to SSO callbacks with SSO off, and writes nothing to the audit log', async () => {
    const rowsBefore = await auditRowCount();
    const responses: Response[] = [];
    for (let n = 0; n < 40; n++) {
      const provider = n % 2 === 0 ? 'oidc' : `provider-${n}`;
      const request = new Request(`${origin}/api/auth/callback/${provider}?state=x`, {
        method: n % 4 === 3 ? 'POST' : 'GET',
        headers: { [PEER_ADDRESS_HEADER]: `198.51.100.${n % 16}` },
      });
      responses.push(await handleAuthRequest(request));
    }
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(404));
    expect(await Promise.all(responses.map(async (response) => (await response.json()).error.code))).toEqual(
      Array(40).fill('not_found'),
    );
    expect(await auditRowCount()).toBe(rowsBefore);
  });

  it('keeps get-session closed: its answer carries the session token', async () => {
    const response = await handleAuthRequest(new Request(`${origin}/api/auth/get-session`));
    expect(response.status).toBe(404);
  });

  it('refuses a sign-in posted from another site', async () => {
    const response = await handleAuthRequest(
      authRequest(
        '/sign-in/email',
        { email: 'admin@unit.example', password: 'unit-admin-password' },
        {
          origin: 'http://evil.example',
        },
      ),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('cross_site_request');
  });

  it('holds the heavy reads back while a sign-in is under way, and not for a sign-out or a refused attempt (lib/db/read-pool/read-gate.ts)', async () => {
    const { readGate } = await consoleServer();
    const hold = vi.spyOn(readGate, 'hold');
    /** Whether the request held the read gate, and its answer. */
    const heldDuring = async (answer: Promise<Response>) => {
      const before = hold.mock.calls.length;
      const response = await answer;
      return { held: hold.mock.calls.length > before, response };
    };
    const signIn = await heldDuring(
      handleAuthRequest(
        authRequest(
          '/sign-in/email',
          { email: 'admin@unit.example', password: 'unit-admin-password' },
          { [PEER_ADDRESS_HEADER]: '10.9.0.1' },
        ),
      ),
    );
    expect(signIn.response.status).toBe(200);
    expect(signIn.held).toBe(true);
    const cookie = (signIn.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const signOut = await heldDuring(
      handleAuthRequest(authRequest('/sign-out', {}, { cookie, [PEER_ADDRESS_HEADER]: '10.9.0.1' })),
    );
    expect(signOut.response.status).toBe(200);
    expect(signOut.held).toBe(false);
    expect(readGate.held).toBe(false);

    // Only a sign-in past the console's own checks holds it: a refusal costs its sender nothing, so
    // it must not hold back anyone's reads (a limited one, a malformed one, a password change
    // without a session).
    const peer = { [PEER_ADDRESS_HEADER]: '10.9.0.2' };
    const guess = () =>
      heldDuring(
        handleAuthRequest(
          authRequest('/sign-in/email', { email: 'gate@unit.example', password: 'guess' }, peer),
        ),
      );
    for (let n = 0; n < 3; n++)
      expect(await guess()).toMatchObject({ held: true, response: { status: 401 } });
    expect(await guess()).toMatchObject({ held: false, response: { status: 429 } });
    const malformed = new Request(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin,
        [PEER_ADDRESS_HEADER]: '10.9.0.3',
      },
      body: new URLSearchParams({ email: 'admin@unit.example', password: 'guess' }),
    });
    expect(await heldDuring(handleAuthRequest(malformed))).toMatchObject({
      held: false,
      response: { status: 415 },
    });
    const noSession = await heldDuring(
      handleAuthRequest(
        authRequest(
          '/change-password',
          { currentPassword: 'a', newPassword: 'b'.repeat(12) },
          { [PEER_ADDRESS_HEADER]: '10.9.0.4' },
        ),
      ),
    );
    expect(noSession.response.status).toBe(401);
    expect(noSession.held).toBe(false);
    hold.mockRestore();
  });
});
