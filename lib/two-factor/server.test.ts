import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { freshCode } from '@/lib/testing/authenticator-app';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Two-factor sign-in, the second-factor policy and the production step-up, against a real service
// and a real console database (SQLite, or PostgreSQL in the PostgreSQL pass). Codes are computed
// here from the secret the enrolment hands out, as an authenticator app would.
const harness = await startRouteTestConsole(
  'twofactor',
  3993,
  { CONSOLE_REQUIRE_2FA: 'support', CONSOLE_STEP_UP_MINUTES: '15' },
  { withCustomer: true },
);
const { origin, params, server } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const startRoute = (await import('@/app/api/account/two-factor/route')).POST;
const confirmRoute = (await import('@/app/api/account/two-factor/confirm/route')).POST;
const backupCodesRoute = (await import('@/app/api/account/two-factor/backup-codes/route')).POST;
const removeRoute = (await import('@/app/api/account/two-factor/remove/route')).POST;
const resetRoute = (await import('@/app/api/operators/[id]/two-factor/reset/route')).POST;
const stepUpRoute = (await import('@/app/api/step-up/route')).POST;
const showTokenRoute = (await import('@/app/api/user-groups/[environment]/show-token/route')).POST;
const getOrCreateRoute = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const rotateRoute = (await import('@/app/api/user-groups/[environment]/rotate/route')).POST;
const directoryRoute = (await import('@/app/api/user-groups/[environment]/route')).GET;
const jobsCreate = (await import('@/app/api/user-groups/[environment]/jobs/get-or-create/route')).POST;
const jobRoute = await import('@/app/api/jobs/[id]/route');
const jobTokensRoute = (await import('@/app/api/jobs/[id]/tokens/route')).POST;

afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';
const send = (cookie: string, method: string, body?: unknown) => harness.request(method, body, { cookie });
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .filter((value) => !value?.endsWith('='))
    .join('; ');

async function addOperator(email: string, role: 'support' | 'admin' | 'viewer') {
  const { id } = await harness.addOperator(email, role, PASSWORD);
  return { id };
}

const authPost = (path: string, body: unknown, cookie = '') =>
  handleAuthRequest(
    new Request(`${origin}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify(body),
    }),
  );

/** Enrols an authenticator app for the operator of `cookie`: its secret, backup codes and new cookie. */
async function enrol(cookie: string) {
  const started = await startRoute(send(cookie, 'POST', { password: PASSWORD }), params({}));
  expect(started.status).toBe(200);
  const enrolment = (await started.json()) as { secret: string; totpUri: string; backupCodes: string[] };
  const confirmed = await confirmRoute(
    send(cookie, 'POST', { code: await freshCode(enrolment.secret) }),
    params({}),
  );
  expect(confirmed.status).toBe(200);
  return { ...enrolment, cookie: cookiesOf(confirmed) };
}

async function entries(action: AuditAction, email: string) {
  const { events } = await listAuditEvents(server.database, { action });
  return events.filter((event) => event.operator_email === email);
}

const { ageSession } = harness;

describe('enrolling an authenticator app and signing in with it', () => {
  it('asks for the password, turns on with the first code, and is on record without a spurious sign-in', async () => {
    await addOperator('enrol@twofactor.example', 'admin');
    const cookie = await harness.signIn('enrol@twofactor.example', PASSWORD);
    const wrong = await startRoute(send(cookie, 'POST', { password: 'not-the-password' }), params({}));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.fields.password).toMatch(/not your current password/);

    const started = await startRoute(send(cookie, 'POST', { password: PASSWORD }), params({}));
    const enrolment = (await started.json()) as { secret: string; totpUri: string; backupCodes: string[] };
    expect(enrolment.totpUri).toMatch(
      /^otpauth:\/\/totp\/User%20Group%20Console:enrol%40twofactor\.example\?/,
    );
    expect(enrolment.backupCodes).toHaveLength(10);
    const signInsBefore = (await entries('sign-in', 'enrol@twofactor.example')).length;

    const badCode = await confirmRoute(send(cookie, 'POST', { code: '000000' }), params({}));
    expect(badCode.status).toBe(400);
    const confirmed = await confirmRoute(
      send(cookie, 'POST', { code: await freshCode(enrolment.secret) }),
      params({}),
    );
    expect(confirmed.status).toBe(200);
    const newCookie = cookiesOf(confirmed);
    expect(newCookie).toContain('console.session_token=');
    // The session was replaced: the old cookie is signed out, the new one works.
    expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(401);
    expect((await directoryRoute(send(newCookie, 'GET'), params({ environment: 'testing' }))).status).toBe(
      200,
    );
    expect((await entries('sign-in', 'enrol@twofactor.example')).length).toBe(signInsBefore);
    const enrolled = await entries('two-factor.enrol', 'enrol@twofactor.example');
    expect(enrolled.map((event) => event.outcome)).toEqual([
      'success',
      'invalid_request',
      'success',
      'invalid_request',
    ]);
  });

  it('signs in with the password and then a code; the password alone gives no session', async () => {
    await addOperator('totp@twofactor.example', 'admin');
    const { secret } = await enrol(await harness.signIn('totp@twofactor.example', PASSWORD));

    const first = await authPost('/sign-in/email', { email: 'totp@twofactor.example', password: PASSWORD });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
    const challenge = cookiesOf(first);
    expect(challenge).toContain('console.two_factor=');
    expect(challenge).not.toContain('session_token');

    const wrong = await authPost('/two-factor/verify-totp', { code: '000000' }, challenge);
    expect(wrong.status).toBe(401);
    // better-auth's `{ code: 'INVALID_CODE', message: 'Invalid code' }` stays on the server.
    const refusal = await wrong.json();
    expect(refusal).toEqual({
      error: {
        code: 'unauthenticated',
        message:
          'That code is not the one your app shows now. Check the phone’s clock and try the next code.',
        requestId: wrong.headers.get('x-request-id'),
      },
    });
    // A remembered device is never granted, whatever the browser asks.
    const right = await authPost(
      '/two-factor/verify-totp',
      { code: await freshCode(secret), trustDevice: true },
      challenge,
    );
    expect(right.status).toBe(200);
    // The session is the HttpOnly cookie's: its token is not in the body page scripts read.
    const signedIn = await right.json();
    expect(signedIn).not.toHaveProperty('token');
    expect(signedIn).not.toHaveProperty('user');
    const session = cookiesOf(right);
    expect(session).toContain('console.session_token=');
    expect(session).not.toContain('trust_device');
    expect((await directoryRoute(send(session, 'GET'), params({ environment: 'testing' }))).status).toBe(200);

    const signIns = await entries('sign-in', 'totp@twofactor.example');
    expect(signIns.slice(0, 3).map((event) => [event.outcome, event.detail])).toEqual([
      ['success', 'email and password, then an authenticator code'],
      ['invalid_code', 'an authenticator code'],
      ['second_factor_asked', 'email and password; the second factor is asked next'],
    ]);
  });

  it('takes a backup code once, and keeps them encrypted, never in clear', async () => {
    const { id } = await addOperator('backup@twofactor.example', 'admin');
    const { backupCodes } = await enrol(await harness.signIn('backup@twofactor.example', PASSWORD));
    const stored = JSON.stringify(
      await server.database.db.selectFrom('twoFactor').selectAll().where('userId', '=', id).execute(),
    );
    expect(stored).toContain(id);
    for (const code of backupCodes) expect(stored).not.toContain(code);
    // Nothing to misread on paper: no 0/O, 1/I/l.
    for (const code of backupCodes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    const code = backupCodes[0] ?? '';
    const signInWith = async () => {
      const first = await authPost('/sign-in/email', {
        email: 'backup@twofactor.example',
        password: PASSWORD,
      });
      return authPost('/two-factor/verify-backup-code', { code }, cookiesOf(first));
    };
    expect((await signInWith()).status).toBe(200);
    const usedUp = await signInWith();
    expect(usedUp.status).toBe(401);
    expect((await usedUp.json()).error).toMatchObject({
      code: 'unauthenticated',
      message: 'That is not one of your unused backup codes.',
    });
  });

  it('takes an authenticator code once, at sign-in as at step-up (RFC 6238 §5.2)', async () => {
    await addOperator('replay@twofactor.example', 'admin');
    const { secret, cookie } = await enrol(await harness.signIn('replay@twofactor.example', PASSWORD));
    const code = await freshCode(secret);
    const signInWith = async () => {
      const first = await authPost('/sign-in/email', {
        email: 'replay@twofactor.example',
        password: PASSWORD,
      });
      return authPost('/two-factor/verify-totp', { code }, cookiesOf(first));
    };
    const signedIn = await signInWith();
    expect(signedIn.status).toBe(200);
    const reused = await signInWith();
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.code).toBe('unauthenticated');
    const signIns = await entries('sign-in', 'replay@twofactor.example');
    expect(signIns[0]?.outcome).toBe('code_reused');

    // At step-up too, in another session: the code was used.
    await ageSession(cookie, 30);
    const again = await stepUpRoute(send(cookie, 'POST', { code }), params({}));
    expect(again.status).toBe(400);
    expect((await again.json()).error.fields.code).toMatch(/used already/);
  });

  it('takes the code that turned the app on once too: it does not sign in again', async () => {
    await addOperator('enrol-code@twofactor.example', 'admin');
    const cookie = await harness.signIn('enrol-code@twofactor.example', PASSWORD);
    const started = await startRoute(send(cookie, 'POST', { password: PASSWORD }), params({}));
    const { secret } = (await started.json()) as { secret: string };
    const code = await freshCode(secret);
    expect((await confirmRoute(send(cookie, 'POST', { code }), params({}))).status).toBe(200);
    const first = await authPost('/sign-in/email', {
      email: 'enrol-code@twofactor.example',
      password: PASSWORD,
    });
    const reused = await authPost('/two-factor/verify-totp', { code }, cookiesOf(first));
    expect(reused.status).toBe(401);
    expect((await entries('sign-in', 'enrol-code@twofactor.example'))[0]?.outcome).toBe('code_reused');
  });

  it('takes one code once when eight sign-ins or five step-ups send it at the same moment (PostgreSQL too)', async () => {
    const email = 'race@twofactor.example';
    await addOperator(email, 'admin');
    const { secret, cookie } = await enrol(await harness.signIn(email, PASSWORD));
    const code = await freshCode(secret);
    const firsts = await Promise.all(
      Array.from({ length: 8 }, () => authPost('/sign-in/email', { email, password: PASSWORD })),
    );
    const seconds = await Promise.all(
      firsts.map((first) => authPost('/two-factor/verify-totp', { code }, cookiesOf(first))),
    );
    expect(seconds.map((response) => response.status).sort()).toEqual([
      200, 401, 401, 401, 401, 401, 401, 401,
    ]);

    const another = await freshCode(secret);
    const stepUps = await Promise.all(
      Array.from({ length: 5 }, () => stepUpRoute(send(cookie, 'POST', { code: another }), params({}))),
    );
    expect(stepUps.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400]);
  });

  it('refuses a second step whose cookies could be read two ways', async () => {
    await addOperator('cookies@twofactor.example', 'admin');
    await enrol(await harness.signIn('cookies@twofactor.example', PASSWORD));
    const first = await authPost('/sign-in/email', {
      email: 'cookies@twofactor.example',
      password: PASSWORD,
    });
    const challenge = cookiesOf(first);
    expect(challenge).toMatch(/^console\.two_factor=/);
    for (const cookie of [
      `${challenge}; ${challenge}`,
      `__Secure-${challenge}`,
      `${challenge.replace('console.two_factor=', 'console.two_factor="')}"`,
    ]) {
      const response = await authPost('/two-factor/verify-totp', { code: '123456' }, cookie);
      expect(response.status, cookie.slice(0, 40)).toBe(400);
    }
  });

  it('refuses the second step to a signed-in operator', async () => {
    const response = await authPost('/two-factor/verify-totp', { code: '123456' }, harness.adminCookie);
    expect(response.status).toBe(409);
  });

  it('new backup codes replace the old; removing needs the password; an admin resets', async () => {
    const operator = await addOperator('manage@twofactor.example', 'admin');
    const enrolled = await enrol(await harness.signIn('manage@twofactor.example', PASSWORD));
    const renewed = await backupCodesRoute(send(enrolled.cookie, 'POST', { password: PASSWORD }), params({}));
    expect(renewed.status).toBe(200);
    const { backupCodes } = (await renewed.json()) as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes).not.toContain(enrolled.backupCodes[0]);

    // An admin's own factor goes through their account page (the password), not a reset.
    const self = await harness.server.database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', harness.admin.email)
      .executeTakeFirstOrThrow();
    expect((await resetRoute(send(harness.adminCookie, 'POST'), params({ id: self.id }))).status).toBe(409);
    const reset = await resetRoute(send(harness.adminCookie, 'POST'), params({ id: operator.id }));
    expect(reset.status).toBe(200);
    const first = await authPost('/sign-in/email', { email: 'manage@twofactor.example', password: PASSWORD });
    expect(await first.json()).not.toHaveProperty('twoFactorRedirect');
    const resets = (await listAuditEvents(server.database, { action: 'two-factor.reset' })).events;
    expect(resets[0]).toMatchObject({
      outcome: 'success',
      detail: 'manage@twofactor.example; their sessions ended',
    });

    const again = await enrol(cookiesOf(first));
    const wrong = await removeRoute(
      send(again.cookie, 'POST', { password: 'wrong-password-here' }),
      params({}),
    );
    expect(wrong.status).toBe(400);
    const removed = await removeRoute(send(again.cookie, 'POST', { password: PASSWORD }), params({}));
    expect(removed.status).toBe(200);
    const plain = await authPost('/sign-in/email', { email: 'manage@twofactor.example', password: PASSWORD });
    expect(await plain.json()).not.toHaveProperty('twoFactorRedirect');
  });
});

describe('the policy: CONSOLE_REQUIRE_2FA=support', () => {
  it('lets a support operator without a second factor do nothing but enrol one', async () => {
    await addOperator('policy@twofactor.example', 'support');
    const cookie = await harness.signIn('policy@twofactor.example', PASSWORD);
    const refused = await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('second_factor_required');
    const { cookie: enrolled } = await enrol(cookie);
    expect((await directoryRoute(send(enrolled, 'GET'), params({ environment: 'testing' }))).status).toBe(
      200,
    );
    // …and may not then remove it.
    const remove = await removeRoute(send(enrolled, 'POST', { password: PASSWORD }), params({}));
    expect(remove.status).toBe(409);
  });

  it('leaves roles it does not name alone', async () => {
    await addOperator('viewer@twofactor.example', 'viewer');
    const cookie = await harness.signIn('viewer@twofactor.example', PASSWORD);
    expect((await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status).toBe(200);
  });
});

describe('step-up in Customer', () => {
  it('refuses a production token or change with a stale authentication, even bypassing the page; Testing never asks', async () => {
    const cookie = await harness.signIn(harness.admin.email, harness.admin.password);
    const id = `step-up-${randomUUID()}`;
    for (const environment of ['customer', 'testing'])
      expect(
        (await getOrCreateRoute(send(cookie, 'POST', { user_group_id: id }), params({ environment }))).status,
      ).toBe(200);

    await ageSession(cookie, 16);
    const stale = await showTokenRoute(
      send(cookie, 'POST', { user_group_id: id }),
      params({ environment: 'customer' }),
    );
    expect(stale.status).toBe(403);
    expect((await stale.json()).error.code).toBe('step_up_required');
    const rotate = await rotateRoute(
      send(cookie, 'POST', { current_token: 'a'.repeat(64) }),
      params({ environment: 'customer' }),
    );
    expect((await rotate.json()).error.code).toBe('step_up_required');
    const refusals = (await listAuditEvents(server.database, { action: 'rotate' })).events;
    expect(refusals[0]?.outcome).toBe('step_up_required');
    expect(
      (await showTokenRoute(send(cookie, 'POST', { user_group_id: id }), params({ environment: 'testing' })))
        .status,
    ).toBe(200);

    const wrong = await stepUpRoute(send(cookie, 'POST', { password: 'not-the-password' }), params({}));
    expect(wrong.status).toBe(400);
    const passed = await stepUpRoute(send(cookie, 'POST', { password: harness.admin.password }), params({}));
    expect(passed.status).toBe(200);
    expect(
      (await showTokenRoute(send(cookie, 'POST', { user_group_id: id }), params({ environment: 'customer' })))
        .status,
    ).toBe(200);
    const stepUps = (await listAuditEvents(server.database, { action: 'step-up' })).events;
    expect(stepUps.slice(0, 2).map((event) => [event.outcome, event.detail])).toEqual([
      ['success', 'password'],
      ['wrong_proof', null],
    ]);
  });

  it('takes an authenticator code, and a code only from an operator who has an app', async () => {
    await addOperator('stepcode@twofactor.example', 'admin');
    const withoutApp = await harness.signIn('stepcode@twofactor.example', PASSWORD);
    const refused = await stepUpRoute(send(withoutApp, 'POST', { code: '123456' }), params({}));
    expect(refused.status).toBe(400);
    const { secret, cookie } = await enrol(withoutApp);
    await ageSession(cookie, 30);
    const passed = await stepUpRoute(send(cookie, 'POST', { code: await freshCode(secret) }), params({}));
    expect(passed.status).toBe(200);
  });

  it('ends the session after five wrong proofs in all, on every route that asks for one; a right one does not wipe the count', async () => {
    // Security round 3, Low: wrong passwords sent to new backup codes and to change-password were
    // refused but never counted, so a stolen session could guess there for its whole life.
    await addOperator('guesser@twofactor.example', 'admin');
    const { cookie } = await enrol(await harness.signIn('guesser@twofactor.example', PASSWORD));
    const wrongPassword = { password: 'a-wrong-guess!' };
    const stillSignedIn = async () =>
      (await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status;

    const first = await stepUpRoute(send(cookie, 'POST', wrongPassword), params({}));
    expect(first.status).toBe(400);
    // A sentence under the field, with the tries left.
    expect((await first.json()).error.fields.password).toBe(
      'That is not your current password. 4 more wrong answers and you are signed out.',
    );
    expect((await backupCodesRoute(send(cookie, 'POST', wrongPassword), params({}))).status).toBe(400);
    expect((await stepUpRoute(send(cookie, 'POST', { password: PASSWORD }), params({}))).status).toBe(200);
    expect((await removeRoute(send(cookie, 'POST', wrongPassword), params({}))).status).toBe(400);
    const changed = await authPost(
      '/change-password',
      { currentPassword: 'a-wrong-guess!', newPassword: 'another-long-password' },
      cookie,
    );
    expect(changed.status).toBe(400);
    expect(await stillSignedIn()).toBe(200);

    const fifth = await backupCodesRoute(send(cookie, 'POST', wrongPassword), params({}));
    expect(fifth.status).toBe(401);
    expect((await fifth.json()).error).toMatchObject({ code: 'unauthenticated', message: /sign in again/ });
    expect(await stillSignedIn()).toBe(401);
    // The right password cannot bring the ended session back.
    expect((await stepUpRoute(send(cookie, 'POST', { password: PASSWORD }), params({}))).status).toBe(401);
    const ended = await entries('session.end', 'guesser@twofactor.example');
    expect(ended[0]).toMatchObject({
      outcome: 'success',
      detail: expect.stringMatching(/5 wrong passwords, codes or passkeys/),
    });
  });

  it('refuses starting a Customer job and taking its tokens with a stale authentication, each refusal on record', async () => {
    const cookie = await harness.signIn(harness.admin.email, harness.admin.password);
    const newJob = async () => {
      const csv = `user_group_id\nstale-job-${randomUUID()}`;
      const created = await jobsCreate(
        send(cookie, 'POST', { source: 'stale.csv', csv }),
        params({ environment: 'customer' }),
      );
      expect(created.status).toBe(200);
      return ((await created.json()) as { id: string }).id;
    };
    const ranJob = await newJob();
    expect(
      (await jobRoute.POST(send(cookie, 'POST', { action: 'start' }), params({ id: ranJob }))).status,
    ).toBe(200);
    // The runner says when the job's run is over: no polling on the clock.
    server.jobs.runner.wake();
    await server.jobs.runner.idle();
    expect((await (await jobRoute.GET(send(cookie, 'GET'), params({ id: ranJob }))).json()).status).toBe(
      'finished',
    );
    const waiting = await newJob();

    await ageSession(cookie, 16);
    const start = await jobRoute.POST(send(cookie, 'POST', { action: 'start' }), params({ id: waiting }));
    expect(start.status).toBe(403);
    expect((await start.json()).error.code).toBe('step_up_required');
    const tokens = await jobTokensRoute(send(cookie, 'POST'), params({ id: ranJob }));
    expect(tokens.status).toBe(403);
    expect((await tokens.json()).error.code).toBe('step_up_required');

    const [started] = await entries('bulk.get-or-create', harness.admin.email);
    expect(started).toMatchObject({
      outcome: 'step_up_required',
      environment: 'Customer',
      request_id: waiting,
    });
    const [download] = await entries('bulk.download', harness.admin.email);
    expect(download).toMatchObject({
      outcome: 'step_up_required',
      environment: 'Customer',
      request_id: ranJob,
    });
    // Nothing happened: the job waits, the tokens are still there for a confirmed download.
    expect((await (await jobRoute.GET(send(cookie, 'GET'), params({ id: waiting }))).json()).status).toBe(
      'draft',
    );
    expect(
      (await stepUpRoute(send(cookie, 'POST', { password: harness.admin.password }), params({}))).status,
    ).toBe(200);
    expect((await jobTokensRoute(send(cookie, 'POST'), params({ id: ranJob }))).status).toBe(200);
  });
});
