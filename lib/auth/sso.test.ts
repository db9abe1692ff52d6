import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoAdminEmail, startSsoConsole } from '@/lib/testing/sso-console';

let sso: Awaited<ReturnType<typeof startSsoConsole>>;

beforeAll(async () => {
  sso = await startSsoConsole({ OIDC_NEW_OPERATOR_ROLE: 'viewer', OIDC_ALLOWED_DOMAINS: 'unit.example' });
});
afterAll(() => sso.close());

describe('single sign-on (new people welcome as viewers, one allowed domain)', () => {
  it('refuses an identity whose IdP does not vouch for the email, even an admin’s: no session', async () => {
    const outcome = await sso.signIn({ email: ssoAdminEmail, emailVerified: false, subject: 'attacker' });
    expect(outcome.signedIn).toBe(false);
    expect(outcome.location).toMatch(/^\/sign-in\?error=/);
    expect(await sso.operator(ssoAdminEmail)).toEqual({ role: 'admin', ssoAccounts: 0 });
  });

  it('binds an operator to the first verified identity and refuses a second one with the same email', async () => {
    const first = await sso.signIn({ email: ssoAdminEmail, subject: 'admin-at-idp' });
    expect(first).toMatchObject({ signedIn: true, location: '/' });
    expect(await sso.signIn({ email: ssoAdminEmail, subject: 'admin-at-idp' })).toMatchObject({
      signedIn: true,
    });

    const impostor = await sso.signIn({ email: ssoAdminEmail, subject: 'someone-else' });
    expect(impostor.signedIn).toBe(false);
    expect(impostor.location).toMatch(/^\/sign-in\?error=/);
    expect(await sso.operator(ssoAdminEmail)).toEqual({ role: 'admin', ssoAccounts: 1 });
  });

  it('admits a verified newcomer at an allowed domain as a viewer', async () => {
    const outcome = await sso.signIn({ email: 'newcomer@unit.example' });
    expect(outcome.signedIn).toBe(true);
    expect(await sso.operator('newcomer@unit.example')).toEqual({ role: 'viewer', ssoAccounts: 1 });
  });

  it('refuses newcomers from other domains and unverified newcomers', async () => {
    for (const identity of [
      { email: 'outsider@elsewhere.example' },
      { email: 'unverified@unit.example', emailVerified: false },
    ]) {
      const outcome = await sso.signIn(identity);
      expect(outcome.signedIn).toBe(false);
      expect(await sso.operator(identity.email)).toBeNull();
    }
  });

  it('counts an SSO sign-in as recent only as the IdP dates it (auth_time), and never without one', async () => {
    // Security round 3: the console asks the IdP for max_age, but took an ID token without auth_time
    // (or with an old one) as a fresh authentication for Customer's step-up.
    const { consoleServer, operatorFromHeaders } = await import('@/lib/server');
    const { requireRecentAuthentication } = await import('@/lib/two-factor/step-up');
    const server = await consoleServer();
    const operatorOf = async (cookie: string) => {
      const operator = await operatorFromHeaders(server, new Headers({ cookie }));
      if (!operator) throw new Error('not signed in');
      return operator;
    };
    // When the session was made (better-auth's stamp on its row): the moment auth_time is held to.
    const sessionMadeAt = async (sessionId: string) => {
      const row = await server.database.db
        .selectFrom('session')
        .select('createdAt')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      return new Date(row.createdAt).getTime();
    };
    const customer = { environment: 'Customer' } as const;
    const email = 'stepping@unit.example';

    const fresh = await operatorOf((await sso.signIn({ email })).cookie);
    const freshAge = (await sessionMadeAt(fresh.session.id)) - fresh.session.authenticatedAt;
    expect(Math.abs(freshAge)).toBeLessThan(60_000);
    expect(() => requireRecentAuthentication(fresh, customer, server.config)).not.toThrow();

    const old = await operatorOf((await sso.signIn({ email, authAgeSeconds: 3600 })).cookie);
    expect((await sessionMadeAt(old.session.id)) - old.session.authenticatedAt).toBeGreaterThan(3_500_000);
    expect(() => requireRecentAuthentication(old, customer, server.config)).toThrow(/Confirm it is you/);

    const undated = await operatorOf((await sso.signIn({ email, authAgeSeconds: null })).cookie);
    expect(undated.session.authenticatedAt).toBe(0);
    expect(() => requireRecentAuthentication(undated, customer, server.config)).toThrow(/Confirm it is you/);
  });
});
