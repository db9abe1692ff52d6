import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoAdminEmail, startSsoConsole } from '@/lib/testing/sso-console';

let sso: Awaited<ReturnType<typeof startSsoConsole>>;

beforeAll(async () => {
  // The default: OIDC_NEW_OPERATOR_ROLE unset means none.
  sso = await startSsoConsole({});
});
afterAll(() => sso.close());

describe('single sign-on for operators an admin added only (the default)', () => {
  it('gives an unknown person no account, even when the request asks to sign up', async () => {
    for (const startBody of [{}, { requestSignUp: true }]) {
      const outcome = await sso.signIn({ email: 'stranger@unit.example' }, startBody);
      expect(outcome.signedIn).toBe(false);
      expect(outcome.location).toMatch(/^\/sign-in\?error=/);
    }
    expect(await sso.operator('stranger@unit.example')).toBeNull();
  });

  it('still signs in an operator an admin added', async () => {
    expect((await sso.signIn({ email: ssoAdminEmail })).signedIn).toBe(true);
  });
});
