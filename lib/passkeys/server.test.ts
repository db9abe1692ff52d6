import { afterAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { passkeysWorkAt } from '@/lib/passkeys/store';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { createSoftwareAuthenticator } from '@/lib/testing/software-authenticator';

// Passkeys against a real console database (SQLite, or PostgreSQL in the PostgreSQL pass), with a
// software authenticator that signs what a browser's would: adding one, signing in with it, a
// step-up with it, removing it, and the policy counting it as a second factor.
const harness = await startRouteTestConsole(
  'passkeys',
  3994,
  { CONSOLE_REQUIRE_2FA: 'support', CONSOLE_STEP_UP_MINUTES: '15' },
  { withCustomer: true },
);
const { origin, params, server } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const operatorsRoute = await import('@/app/api/operators/route');
const passkeysRoute = await import('@/app/api/account/passkeys/route');
const optionsRoute = (await import('@/app/api/account/passkeys/options/route')).POST;
const removeRoute = (await import('@/app/api/account/passkeys/[id]/remove/route')).POST;
const stepUpRoute = (await import('@/app/api/step-up/route')).POST;
const stepUpPasskeyRoute = (await import('@/app/api/step-up/passkey/route')).POST;
const resetRoute = (await import('@/app/api/operators/[id]/two-factor/reset/route')).POST;
const directoryRoute = (await import('@/app/api/user-groups/[environment]/route')).GET;

afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';
const rpId = new URL(origin).hostname;
const send = (cookie: string, method: string, body?: unknown) => harness.request(method, body, { cookie });
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .filter((value) => !value?.endsWith('='))
    .join('; ');
const withCookies = (cookie: string, response: Response) =>
  [cookie, cookiesOf(response)].filter(Boolean).join('; ');

async function addOperator(email: string, role: 'support' | 'admin' | 'viewer') {
  const { id } = await harness.addOperator(email, role, PASSWORD);
  return { id };
}

async function entries(action: AuditAction, email: string) {
  const { events } = await listAuditEvents(server.database, { action });
  return events.filter((event) => event.operator_email === email);
}

/** Adds a passkey named `name` for the operator of `cookie`; answers the add route's response. */
async function addPasskey(
  cookie: string,
  authenticator: ReturnType<typeof createSoftwareAuthenticator>,
  name: string,
  { userVerified = true } = {},
) {
  const started = await optionsRoute(send(cookie, 'POST', { name }), params({}));
  expect(started.status).toBe(200);
  const options = (await started.json()) as { challenge: string; rp: { id: string } };
  expect(options.rp.id).toBe(rpId);
  return passkeysRoute.POST(
    send(withCookies(cookie, started), 'POST', {
      name,
      response: authenticator.register(options, { userVerified }),
    }),
    params({}),
  );
}

/** A sign-in with a passkey through /api/auth, as the sign-in page makes it. */
async function signInWithPasskey(authenticator: ReturnType<typeof createSoftwareAuthenticator>) {
  const started = await handleAuthRequest(
    new Request(`${origin}/api/auth/passkey/generate-authenticate-options`, { headers: { origin } }),
  );
  expect(started.status).toBe(200);
  const options = (await started.json()) as { challenge: string };
  const answer = authenticator.authenticate(options);
  const post = () =>
    handleAuthRequest(
      new Request(`${origin}/api/auth/passkey/verify-authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie: cookiesOf(started) },
        body: JSON.stringify({ response: answer }),
      }),
    );
  return { response: await post(), replay: post };
}

describe('passkeys', () => {
  it('are added with a name after the authenticator verified the person, listed without their key, and on record', async () => {
    await addOperator('add@passkeys.example', 'admin');
    const cookie = await harness.signIn('add@passkeys.example', PASSWORD);
    const authenticator = createSoftwareAuthenticator({ origin, rpId });

    const unverified = await addPasskey(cookie, authenticator, 'No PIN', { userVerified: false });
    expect(unverified.status).toBe(400);
    expect((await unverified.json()).error.fields.passkey).toMatch(/PIN, fingerprint or face/);

    const added = await addPasskey(cookie, authenticator, 'Laptop');
    expect(added.status).toBe(200);
    expect((await added.json()).passkey).toMatchObject({ name: 'Laptop' });

    const listed = await passkeysRoute.GET(send(cookie, 'GET'), params({}));
    const { passkeys } = (await listed.json()) as { passkeys: Array<Record<string, unknown>> };
    expect(passkeys).toHaveLength(1);
    expect(Object.keys(passkeys[0] ?? {}).sort()).toEqual(['createdAt', 'id', 'name']);
    expect(JSON.stringify(passkeys)).not.toContain(authenticator.credentialId);

    const recorded = await entries('passkey.add', 'add@passkeys.example');
    expect(recorded.map((event) => [event.outcome, event.detail])).toEqual([
      ['success', 'Laptop'],
      ['invalid_request', 'No PIN'],
    ]);
    expect(JSON.stringify(recorded)).not.toContain(authenticator.credentialId);
  });

  it('refuses an answer made for another origin, or sent without the challenge cookie', async () => {
    await addOperator('origin@passkeys.example', 'admin');
    const cookie = await harness.signIn('origin@passkeys.example', PASSWORD);
    const authenticator = createSoftwareAuthenticator({ origin, rpId });
    const started = await optionsRoute(send(cookie, 'POST', { name: 'Phishing' }), params({}));
    const options = (await started.json()) as { challenge: string };
    const elsewhere = await passkeysRoute.POST(
      send(withCookies(cookie, started), 'POST', {
        name: 'Phishing',
        response: authenticator.register(options, { at: 'https://console.example.net' }),
      }),
      params({}),
    );
    expect(elsewhere.status).toBe(400);
    // The challenge was taken by that attempt: the right answer to it now finds none.
    const again = await passkeysRoute.POST(
      send(withCookies(cookie, started), 'POST', {
        name: 'Again',
        response: authenticator.register(options),
      }),
      params({}),
    );
    expect(again.status).toBe(400);
    const noCookie = await passkeysRoute.POST(
      send(cookie, 'POST', { name: 'No cookie', response: authenticator.register(options) }),
      params({}),
    );
    expect(noCookie.status).toBe(400);
    const listed = await passkeysRoute.GET(send(cookie, 'GET'), params({}));
    expect((await listed.json()).passkeys).toEqual([]);
  });

  it('sign in on their own, once per challenge, and the sign-in is on record', async () => {
    await addOperator('signin@passkeys.example', 'admin');
    const cookie = await harness.signIn('signin@passkeys.example', PASSWORD);
    const authenticator = createSoftwareAuthenticator({ origin, rpId });
    expect((await addPasskey(cookie, authenticator, 'Phone')).status).toBe(200);

    const { response, replay } = await signInWithPasskey(authenticator);
    expect(response.status).toBe(200);
    const session = cookiesOf(response);
    expect(session).toContain('console.session_token=');
    expect((await directoryRoute(send(session, 'GET'), params({ environment: 'testing' }))).status).toBe(200);
    const row = await server.database.db
      .selectFrom('session')
      .select('signInMethod')
      .where(
        'token',
        '=',
        decodeURIComponent(/console\.session_token=([^;]+)/.exec(session)?.[1] ?? '').split('.')[0] ?? '',
      )
      .executeTakeFirst();
    expect(row?.signInMethod).toBe('passkey');

    const replayed = await replay();
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({
      error: { code: 'unauthenticated', message: expect.stringMatching(/passkey did not sign you in/) },
    });

    const signIns = await entries('sign-in', 'signin@passkeys.example');
    expect(signIns.slice(0, 2).map((event) => [event.outcome, event.detail])).toEqual([
      ['challenge_not_found', 'a passkey'],
      ['success', 'a passkey'],
    ]);
  });

  it('answer a step-up once, bound to the session that asked; a wrong one is on record', async () => {
    await addOperator('stepup@passkeys.example', 'admin');
    const cookie = await harness.signIn('stepup@passkeys.example', PASSWORD);
    const other = await harness.signIn('stepup@passkeys.example', PASSWORD);
    const authenticator = createSoftwareAuthenticator({ origin, rpId });
    expect((await addPasskey(cookie, authenticator, 'Key')).status).toBe(200);

    const asked = await stepUpPasskeyRoute(send(cookie, 'POST'), params({}));
    expect(asked.status).toBe(200);
    const options = (await asked.json()) as { challenge: string };
    const answer = authenticator.authenticate(options);
    // Another session of the same operator has no challenge of its own: refused.
    expect((await stepUpRoute(send(other, 'POST', { passkey: answer }), params({}))).status).toBe(400);
    const passed = await stepUpRoute(send(cookie, 'POST', { passkey: answer }), params({}));
    expect(passed.status).toBe(200);
    const replayed = await stepUpRoute(send(cookie, 'POST', { passkey: answer }), params({}));
    expect(replayed.status).toBe(400);
    expect((await replayed.json()).error.fields.passkey).toMatch(/not asked for/);

    const stepUps = await entries('step-up', 'stepup@passkeys.example');
    expect(stepUps.map((event) => [event.outcome, event.detail])).toEqual([
      ['wrong_proof', null],
      ['success', 'passkey'],
      ['wrong_proof', null],
    ]);
  });

  it('count as a second factor for the policy, and the last one of a required role stays', async () => {
    await addOperator('policy@passkeys.example', 'support');
    const cookie = await harness.signIn('policy@passkeys.example', PASSWORD);
    const refused = await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('second_factor_required');

    const authenticator = createSoftwareAuthenticator({ origin, rpId });
    const added = await addPasskey(cookie, authenticator, 'Only one');
    expect(added.status).toBe(200);
    const { id } = (await added.json()).passkey as { id: string };
    expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(200);

    const last = await removeRoute(send(cookie, 'POST'), params({ id }));
    expect(last.status).toBe(409);

    const second = await addPasskey(cookie, createSoftwareAuthenticator({ origin, rpId }), 'Spare');
    expect(second.status).toBe(200);
    const removed = await removeRoute(send(cookie, 'POST'), params({ id }));
    expect(removed.status).toBe(200);
    expect((await removeRoute(send(cookie, 'POST'), params({ id }))).status).toBe(404);
    const recorded = await entries('passkey.remove', 'policy@passkeys.example');
    expect(recorded.map((event) => [event.outcome, event.detail])).toEqual([['success', 'Only one']]);
  });

  it('cannot be removed by someone else', async () => {
    await addOperator('owner@passkeys.example', 'admin');
    const cookie = await harness.signIn('owner@passkeys.example', PASSWORD);
    const added = await addPasskey(cookie, createSoftwareAuthenticator({ origin, rpId }), 'Mine');
    const { id } = (await added.json()).passkey as { id: string };
    expect((await removeRoute(send(harness.adminCookie, 'POST'), params({ id }))).status).toBe(404);
    expect((await (await passkeysRoute.GET(send(cookie, 'GET'), params({}))).json()).passkeys).toHaveLength(
      1,
    );

    // An admin sees a second factor, and their reset removes the passkeys too.
    const listed = await operatorsRoute.GET(send(harness.adminCookie, 'GET'), params({}));
    const { operators } = (await listed.json()) as {
      operators: Array<{ id: string; email: string; twoFactorEnabled: boolean; secondFactor: string }>;
    };
    const owner = operators.find((operator) => operator.email === 'owner@passkeys.example');
    expect(owner?.twoFactorEnabled).toBe(true);
    // What an audit asks of each operator: which second factor, and when they last signed in.
    expect(owner).toMatchObject({ secondFactor: 'passkey', lastSignInAt: expect.any(String) });
    // Stamped at their sign-in: within a minute of when better-auth made that session.
    const token = decodeURIComponent(/console\.session_token=([^;]+)/.exec(cookie)?.[1] ?? '').split('.')[0];
    const session = await server.database.db
      .selectFrom('session')
      .select('createdAt')
      .where('token', '=', token ?? '')
      .executeTakeFirstOrThrow();
    const lastSignInAt = Date.parse((owner as unknown as { lastSignInAt: string }).lastSignInAt);
    expect(Math.abs(lastSignInAt - new Date(session.createdAt).getTime())).toBeLessThan(60_000);
    const reset = await resetRoute(send(harness.adminCookie, 'POST'), params({ id: owner?.id ?? '' }));
    expect(reset.status).toBe(200);
    // Their sessions ended with it; signed in again, they have none.
    expect((await passkeysRoute.GET(send(cookie, 'GET'), params({}))).status).toBe(401);
    const again = await harness.signIn('owner@passkeys.example', PASSWORD);
    expect((await (await passkeysRoute.GET(send(again, 'GET'), params({}))).json()).passkeys).toEqual([]);
  });
});

describe('a passkey-only operator signing in with the password', () => {
  // Security round 3, High: the password alone gave a full session (`signInMethod: password`) that
  // read Customer tokens; the passkey is now the second step, policy or not.
  const showTokenRoute = async () =>
    (await import('@/app/api/user-groups/[environment]/show-token/route')).POST;
  const startTwoFactorRoute = async () => (await import('@/app/api/account/two-factor/route')).POST;

  for (const role of ['support', 'admin'] as const)
    it(`gets a session that can only confirm with the passkey (${role}: ${role === 'support' ? 'the policy names it' : 'no policy'})`, async () => {
      const email = `only-passkey-${role}@passkeys.example`;
      await addOperator(email, role);
      const first = await harness.signIn(email, PASSWORD);
      const authenticator = createSoftwareAuthenticator({ origin, rpId });
      expect((await addPasskey(first, authenticator, 'Only way')).status).toBe(200);
      // The session that added it proved it: it goes on.
      expect((await directoryRoute(send(first, 'GET'), params({ environment: 'testing' }))).status).toBe(200);

      // Another machine, the password alone.
      const cookie = await harness.signIn(email, PASSWORD);
      const tokenRoute = await showTokenRoute();
      for (const refused of [
        await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' })),
        await tokenRoute(
          send(cookie, 'POST', { user_group_id: 'acme' }),
          params({ environment: 'customer' }),
        ),
        await operatorsRoute.GET(send(cookie, 'GET'), params({})),
      ]) {
        expect(refused.status).toBe(403);
        expect((await refused.json()).error.code).toBe('second_factor_required');
      }
      // Nor can it add a second factor of its own (a passkey, an app) to walk around the one it has.
      const ownOptions = await optionsRoute(send(cookie, 'POST', { name: 'Mallory' }), params({}));
      expect(ownOptions.status).toBe(403);
      const ownApp = await (await startTwoFactorRoute())(
        send(cookie, 'POST', { password: PASSWORD }),
        params({}),
      );
      expect(ownApp.status).toBe(403);
      // The password is no second step, nor can it change the password and sign the owner out.
      expect((await stepUpRoute(send(cookie, 'POST', { password: PASSWORD }), params({}))).status).toBe(409);
      expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(
        403,
      );
      const changed = await handleAuthRequest(
        new Request(`${origin}/api/auth/change-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin, cookie },
          body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'an-attacker-password' }),
        }),
      );
      expect(changed.status).toBe(403);
      expect((await changed.json()).error.code).toBe('second_factor_required');
      expect((await directoryRoute(send(first, 'GET'), params({ environment: 'testing' }))).status).toBe(200);

      // The passkey is.
      const challenge = await stepUpPasskeyRoute(send(cookie, 'POST'), params({}));
      expect(challenge.status).toBe(200);
      const answer = authenticator.authenticate((await challenge.json()) as { challenge: string });
      expect((await stepUpRoute(send(cookie, 'POST', { passkey: answer }), params({}))).status).toBe(200);
      expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(
        200,
      );
    });

  it('a session waiting for the passkey ends when the passkey goes (an admin’s reset, or the owner removing the last one)', async () => {
    // Found by the attacker's pass: once the operator had no factor left, the waiting password-only
    // session stopped waiting and opened the console on the password alone.
    for (const how of ['reset', 'removed'] as const) {
      const email = `waiting-${how}@passkeys.example`;
      const { id } = await addOperator(email, 'admin');
      const owner = await harness.signIn(email, PASSWORD);
      const added = await addPasskey(owner, createSoftwareAuthenticator({ origin, rpId }), 'Only one');
      const passkeyId = ((await added.json()).passkey as { id: string }).id;
      const waiting = await harness.signIn(email, PASSWORD);
      expect((await directoryRoute(send(waiting, 'GET'), params({ environment: 'testing' }))).status).toBe(
        403,
      );

      if (how === 'reset')
        expect((await resetRoute(send(harness.adminCookie, 'POST'), params({ id }))).status).toBe(200);
      else expect((await removeRoute(send(owner, 'POST'), params({ id: passkeyId }))).status).toBe(200);
      expect((await directoryRoute(send(waiting, 'GET'), params({ environment: 'testing' }))).status).toBe(
        401,
      );
      // The owner's own proved session: ended by an admin's reset, kept when they removed it themselves.
      expect((await directoryRoute(send(owner, 'GET'), params({ environment: 'testing' }))).status).toBe(
        how === 'reset' ? 401 : 200,
      );
    }
  });

  it('a sign-in with the passkey itself opens the console at once', async () => {
    await addOperator('passkey-first@passkeys.example', 'support');
    const first = await harness.signIn('passkey-first@passkeys.example', PASSWORD);
    const authenticator = createSoftwareAuthenticator({ origin, rpId });
    expect((await addPasskey(first, authenticator, 'Laptop')).status).toBe(200);
    const { response } = await signInWithPasskey(authenticator);
    expect(response.status).toBe(200);
    const cookie = cookiesOf(response);
    expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(200);
  });
});

describe('passkeysWorkAt', () => {
  it.each([
    ['http://localhost:3000', true],
    ['https://console.example.com', true],
    ['http://console.localhost:3000', true],
    ['http://127.0.0.1:3000', false],
    ['https://10.0.0.5', false],
    ['http://[::1]:3000', false],
    ['http://console.example.com', false],
  ])('%s: %s', (url, works) => {
    expect(passkeysWorkAt(new URL(url))).toBe(works);
  });
});
