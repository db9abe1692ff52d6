import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_ADDRESS_HEADER } from '@/lib/config/trusted-proxies';
import { ssoConsoleOrigin, startSsoConsole } from '@/lib/testing/sso-console';

let sso: Awaited<ReturnType<typeof startSsoConsole>>;

beforeAll(async () => {
  sso = await startSsoConsole({ CONSOLE_SIGN_IN_RATE_LIMIT: 'off' });
});
afterAll(() => sso.close());

async function strayCallback(client: string): Promise<Response> {
  const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
    (await import('@/lib/server')).consoleServer,
  );
  return handleAuthRequest(
    new Request(`${ssoConsoleOrigin}/api/auth/callback/oidc?state=forged&code=x`, {
      headers: { [PEER_ADDRESS_HEADER]: client },
    }),
  );
}

async function auditRowCount(): Promise<number> {
  const { database } = await (await import('@/lib/server')).consoleServer();
  const { count } = await database.db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe('failed SSO callbacks with the sign-in limit off', () => {
  it('are not refused, but reach the audit log once per client and minute', async () => {
    const before = await auditRowCount();
    const statuses = [];
    for (let n = 0; n < 160; n++) statuses.push((await strayCallback('198.51.100.7')).status);
    expect(statuses).toEqual(Array(160).fill(302));
    expect(await auditRowCount()).toBe(before + 1);

    for (let n = 0; n < 160; n++) await strayCallback('198.51.100.8');
    expect(await auditRowCount()).toBe(before + 2);
  });
});
