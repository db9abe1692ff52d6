import { afterAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { createSoftwareAuthenticator } from '@/lib/testing/software-authenticator';

const harness = await startRouteTestConsole(
  'zzattack',
  3961,
  { CONSOLE_STEP_UP_MINUTES: '15' },
  { withCustomer: true },
);
const { origin, params, server } = harness;
const handleAuthRequest = (await import('@/lib/server/auth-route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const operatorsRoute = await import('@/app/api/operators/route');
const passkeysRoute = await import('@/app/api/account/passkeys/route');
const optionsRoute = (await import('@/app/api/account/passkeys/options/route')).POST;
const removePasskeyRoute = (await import('@/app/api/account/passkeys/[id]/remove/route')).POST;
const stepUpRoute = (await import('@/app/api/step-up/route')).POST;
const sessionsRoute = (await import('@/app/api/account/sessions/route')).GET;
const endSessionsRoute = (await import('@/app/api/account/sessions/end/route')).POST;
const auditRoute = (await import('@/app/api/audit/route')).GET;
const directoryRoute = (await import('@/app/api/user-groups/[environment]/route')).GET;
const removeAppRoute = (await import('@/app/api/account/two-factor/remove/route')).POST;
const backupRoute = (await import('@/app/api/account/two-factor/backup-codes/route')).POST;
afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';
const rpId = new URL(origin).hostname;
const send = (cookie: string, method: string, body?: unknown) => harness.request(method, body, { cookie });
const cookiesOf = (r: Response) =>
  r.headers
    .getSetCookie()
    .map((v) => v.split(';')[0])
    .filter((v) => !v?.endsWith('='))
    .join('; ');
const withCookies = (c: string, r: Response) => [c, cookiesOf(r)].filter(Boolean).join('; ');
async function addPasskey(cookie: string, a: ReturnType<typeof createSoftwareAuthenticator>, name: string) {
  const started = await optionsRoute(send(cookie, 'POST', { name }), params({}));
  const options = await started.json();
  return passkeysRoute.POST(
    send(withCookies(cookie, started), 'POST', { name, response: a.register(options) }),
    params({}),
  );
}
const auth = (path: string, cookie: string, body: unknown) =>
  handleAuthRequest(
    new Request(`${origin}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify(body),
    }),
  );
const show = async (label: string, r: Response) => {
  const t = await r.clone().text();
  console.log(label, r.status, t.slice(0, 200));
  return r;
};

describe('attack: passkey-only password session', () => {
  it('probes', async () => {
    const email = 'victim@zzattack.example';
    await harness.addOperator(email, 'admin', PASSWORD);
    const victim = await harness.signIn(email, PASSWORD);
    const a = createSoftwareAuthenticator({ origin, rpId });
    expect((await addPasskey(victim, a, 'Key')).status).toBe(200);
    expect((await operatorsRoute.GET(send(victim, 'GET'), params({}))).status).toBe(200);

    const mallory = await harness.signIn(email, PASSWORD);
    await show('ops', await operatorsRoute.GET(send(mallory, 'GET'), params({})));
    await show('sessions', await sessionsRoute(send(mallory, 'GET'), params({})));
    await show('end', await endSessionsRoute(send(mallory, 'POST', { all: true }), params({})));
    await show('audit', await auditRoute(send(mallory, 'GET'), params({})));
    await show('passkeys list', await passkeysRoute.GET(send(mallory, 'GET'), params({})));
    await show('rm passkey', await removePasskeyRoute(send(mallory, 'POST'), params({ id: 'x' })));
    await show('rm app', await removeAppRoute(send(mallory, 'POST', { password: PASSWORD }), params({})));
    await show('backup', await backupRoute(send(mallory, 'POST', { password: PASSWORD }), params({})));
    await show('stepup code', await stepUpRoute(send(mallory, 'POST', { code: 'ABCDE-12345' }), params({})));
    // change password from the half-signed-in session
    const changed = await show(
      'change-password',
      await auth('/change-password', mallory, {
        currentPassword: PASSWORD,
        newPassword: 'mallory-chose-this-one',
      }),
    );
    const mallory2 = withCookies(mallory, changed);
    await show(
      'victim after change (proved session)',
      await operatorsRoute.GET(send(victim, 'GET'), params({})),
    );
    await show('mallory2 ops', await operatorsRoute.GET(send(mallory2, 'GET'), params({})));
    await show('victim pw sign-in old', await auth('/sign-in/email', '', { email, password: PASSWORD }));
  });

  it('pre-enrolment session', async () => {
    const email = 'pre@zzattack.example';
    await harness.addOperator(email, 'admin', PASSWORD);
    const old = await harness.signIn(email, PASSWORD);
    const s2 = await harness.signIn(email, PASSWORD);
    const a = createSoftwareAuthenticator({ origin, rpId });
    expect((await addPasskey(s2, a, 'Key')).status).toBe(200);
    await show('old session after enrol', await operatorsRoute.GET(send(old, 'GET'), params({})));
    await show('old dir', await directoryRoute(send(old, 'GET'), params({ environment: 'testing' })));
  });
});
