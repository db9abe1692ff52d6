import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCode } from '@/lib/testing/authenticator-app';
import { ssoConsoleOrigin, startSsoConsole } from '@/lib/testing/sso-console';

// CONSOLE_REQUIRE_2FA_FOR_SSO: an SSO sign-in proves no second factor, so an operator of a listed
// role enrols one without a password (they have none; a recent sign-in stands in for it) and, once
// they have one, enters its code after every SSO sign-in before anything else.
let sso: Awaited<ReturnType<typeof startSsoConsole>>;
let routes: Awaited<ReturnType<typeof importRoutes>>;

async function importRoutes() {
  return {
    start: (await import('@/app/api/account/two-factor/route')).POST,
    confirm: (await import('@/app/api/account/two-factor/confirm/route')).POST,
    stepUp: (await import('@/app/api/step-up/route')).POST,
    directory: (await import('@/app/api/user-groups/[environment]/route')).GET,
  };
}

beforeAll(async () => {
  sso = await startSsoConsole({
    OIDC_NEW_OPERATOR_ROLE: 'support',
    CONSOLE_REQUIRE_2FA: 'support',
    CONSOLE_REQUIRE_2FA_FOR_SSO: 'true',
    CONSOLE_STEP_UP_MINUTES: '15',
  });
  routes = await importRoutes();
});
afterAll(() => sso.close());

const params = <T>(value: T) => ({ params: Promise.resolve(value) });
const send = (cookie: string, method: string, body?: unknown) =>
  new Request(`${ssoConsoleOrigin}/api/test`, {
    method,
    headers: { cookie, origin: ssoConsoleOrigin, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .filter((value) => !value?.endsWith('='))
    .join('; ');
const directory = async (cookie: string) => {
  const response = await routes.directory(send(cookie, 'GET'), params({ environment: 'testing' }));
  return { status: response.status, body: await response.json() };
};

async function signIn(email: string): Promise<string> {
  const outcome = await sso.signIn({ email });
  expect(outcome.signedIn).toBe(true);
  return outcome.cookie;
}

describe('the second-factor policy for SSO operators (CONSOLE_REQUIRE_2FA_FOR_SSO=true)', () => {
  it('lets an SSO-only operator enrol without a password, then asks for a code after every SSO sign-in', async () => {
    const first = await signIn('sso-only@unit.example');
    const before = await directory(first);
    expect(before.status).toBe(403);
    expect(before.body.error).toMatchObject({ code: 'second_factor_required', message: /set up/ });

    const started = await routes.start(send(first, 'POST', {}), params({}));
    expect(started.status).toBe(200);
    const { secret } = (await started.json()) as { secret: string };
    const confirmed = await routes.confirm(
      send(first, 'POST', { code: await freshCode(secret) }),
      params({}),
    );
    expect(confirmed.status).toBe(200);
    // Enrolling proved the factor: the session it leaves opens the console.
    expect((await directory(cookiesOf(confirmed))).status).toBe(200);

    const next = await signIn('sso-only@unit.example');
    const asked = await directory(next);
    expect(asked.status).toBe(403);
    expect(asked.body.error).toMatchObject({ code: 'second_factor_required', message: /authenticator code/ });
    const wrong = await routes.stepUp(send(next, 'POST', { code: '000000' }), params({}));
    expect(wrong.status).toBe(400);
    expect((await directory(next)).status).toBe(403);
    const right = await routes.stepUp(send(next, 'POST', { code: await freshCode(secret) }), params({}));
    expect(right.status).toBe(200);
    expect((await directory(next)).status).toBe(200);
  });

  it('asks an SSO-only operator whose sign-in is old to sign in again before enrolling', async () => {
    // The IdP authenticated them 20 minutes ago (its auth_time), whatever the session's age.
    const outcome = await sso.signIn({ email: 'sso-stale@unit.example', authAgeSeconds: 20 * 60 });
    expect(outcome.signedIn).toBe(true);
    const { cookie } = outcome;
    const started = await routes.start(send(cookie, 'POST', {}), params({}));
    expect(started.status).toBe(403);
    expect((await started.json()).error.code).toBe('step_up_required');
  });

  it('still asks a password operator for their password to enrol', async () => {
    // The first admin has a password; with none sent, the field is named.
    const { consoleServer } = await import('@/lib/server');
    const { auth } = await consoleServer();
    const signedIn = await auth.api.signInEmail({
      body: { email: 'admin@unit.example', password: 'unit-admin-password' },
      headers: new Headers({ origin: ssoConsoleOrigin }),
      returnHeaders: true,
    });
    const cookie = cookiesOf(new Response(null, { headers: signedIn.headers }));
    const started = await routes.start(send(cookie, 'POST', {}), params({}));
    expect(started.status).toBe(400);
    expect((await started.json()).error.fields.password).toMatch(/must not be empty/);
  });
});
