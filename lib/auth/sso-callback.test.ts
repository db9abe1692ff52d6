import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_ADDRESS_HEADER } from '@/lib/config/trusted-proxies';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { ssoAdminEmail, ssoConsoleOrigin, startSsoConsole } from '@/lib/testing/sso-console';

let sso: Awaited<ReturnType<typeof startSsoConsole>>;

beforeAll(async () => {
  sso = await startSsoConsole({ CONSOLE_SIGN_IN_RATE_LIMIT: '5/60' });
});
afterAll(() => sso.close());

const server = async () => (await import('@/lib/server')).consoleServer();

/** A callback nobody started: what anyone can send without signing in. */
async function strayCallback(provider: string, client: string): Promise<Response> {
  const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
    (await import('@/lib/server')).consoleServer,
  );
  return handleAuthRequest(
    new Request(`${ssoConsoleOrigin}/api/auth/callback/${provider}?state=forged&code=x`, {
      headers: { [PEER_ADDRESS_HEADER]: client },
    }),
  );
}

async function auditRows() {
  const { database } = await server();
  return database.db.selectFrom('audit_event').selectAll().orderBy('id').execute();
}

/** better-auth's `session` table is not among the console's typed tables. */
async function sessionCount(): Promise<number> {
  const { database } = await server();
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from session`.execute(
    database.db,
  );
  return Number(rows[0]?.count);
}

describe('the SSO callback, with SSO on and a sign-in limit of 5 per minute', () => {
  it('is the configured provider’s only: another provider id answers 404 and writes nothing', async () => {
    const before = (await auditRows()).length;
    for (const provider of ['github', 'google', 'oidc2']) {
      const response = await strayCallback(provider, '198.51.100.1');
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    expect(await auditRows()).toHaveLength(before);
  });

  it('records failed callbacks once per client and window, and refuses a client over the limit', async () => {
    const before = (await auditRows()).length;
    const statuses = [];
    for (let n = 0; n < 20; n++) statuses.push((await strayCallback('oidc', '198.51.100.2')).status);
    expect(statuses).toEqual([...Array(5).fill(302), ...Array(15).fill(429)]);
    expect((await auditRows()).slice(before)).toHaveLength(1);

    for (let n = 0; n < 20; n++) await strayCallback('oidc', '198.51.100.3');
    const added = (await auditRows()).slice(before);
    expect(added).toHaveLength(2);
    expect(added.map((row) => [row.action, row.operator_id])).toEqual([
      ['sign-in', null],
      ['sign-in', null],
    ]);

    const refused = await strayCallback('oidc', '198.51.100.2');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe('rate_limited');
  });

  it('counts callbacks apart from password sign-ins: a client over its callback limit may still sign in', async () => {
    const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
      (await import('@/lib/server')).consoleServer,
    );
    const response = await handleAuthRequest(
      new Request(`${ssoConsoleOrigin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: ssoConsoleOrigin,
          [PEER_ADDRESS_HEADER]: '198.51.100.2',
        },
        body: JSON.stringify({ email: ssoAdminEmail, password: 'unit-admin-password' }),
      }),
    );
    expect(response.status).toBe(200);
  });

  it('creates no session for a sign-in the audit log cannot record, and one once it can', async () => {
    const { database } = await server();
    const sessionsBefore = await sessionCount();
    const refused = await whileInsertsFail(database, 'audit_event', () =>
      sso.signIn({ email: ssoAdminEmail }),
    );
    expect(refused.signedIn).toBe(false);
    expect(refused.location).toMatch(/^\/sign-in\?error=AUDIT_UNAVAILABLE/);
    expect(await sessionCount()).toBe(sessionsBefore);

    const rowsBefore = (await auditRows()).length;
    expect((await sso.signIn({ email: ssoAdminEmail })).signedIn).toBe(true);
    expect(await sessionCount()).toBe(sessionsBefore + 1);
    expect((await auditRows()).slice(rowsBefore)).toMatchObject([
      { action: 'sign-in', operator_email: ssoAdminEmail, outcome: 'success', detail: 'single sign-on' },
    ]);
  });
});
