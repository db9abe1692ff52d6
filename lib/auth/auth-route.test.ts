import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The server reads its configuration from the environment once: set it before the first use.
const dataDir = mkdtempSync(path.join(tmpdir(), 'auth-route-'));
Object.assign(process.env, {
  DATA_DIR: dataDir,
  PORT: '3999',
  CONSOLE_URL: 'http://127.0.0.1:3999',
  CONSOLE_SIGN_IN_RATE_LIMIT: '3/60',
  CONSOLE_ADMIN_EMAIL: 'admin@unit.example',
  CONSOLE_ADMIN_PASSWORD: 'unit-admin-password',
  LOG_LEVEL: 'silent',
});

const { handleAuthRequest } = await import('./auth-route');
const { consoleServer } = await import('./server');
const { ensureFirstAdmin } = await import('./bootstrap');
const { listAuditEvents } = await import('@/lib/audit/store');

const origin = 'http://127.0.0.1:3999';

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
  rmSync(dataDir, { recursive: true, force: true });
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
    const { events } = await listAuditEvents(database.db, { action: 'sign-in', page: 1 });
    expect(events[0]).toMatchObject({
      operator_email: 'admin@unit.example',
      outcome: 'success',
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('limits sign-in attempts per email even when the client claims a new address each time', async () => {
    const attempt = (n: number) =>
      handleAuthRequest(
        authRequest(
          '/sign-in/email',
          { email: 'Target@Unit.example', password: 'guess' },
          {
            'x-forwarded-for': `203.0.113.${n}`,
          },
        ),
      );
    const statuses = [];
    for (let n = 0; n < 5; n++) statuses.push((await attempt(n)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await attempt(9);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('rate_limited');
    const { database } = await consoleServer();
    const { events } = await listAuditEvents(database.db, { operator: 'target@unit.example', page: 1 });
    expect(events.map((event) => event.outcome)).toEqual([
      'rate_limited',
      'rate_limited',
      'rate_limited',
      'invalid_email_or_password',
      'invalid_email_or_password',
      'invalid_email_or_password',
    ]);
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
});
