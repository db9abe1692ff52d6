import { afterAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Open sessions, against a real console database (SQLite, or PostgreSQL in the PostgreSQL pass):
// listed for their owner, ended by them or an admin, and an ended session is signed out at once.
const harness = await startRouteTestConsole('sessions', 3992);
const { params, server } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const { browserOf } = await import('@/lib/sessions/store');
const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const listRoute = (await import('@/app/api/account/sessions/route')).GET;
const endRoute = (await import('@/app/api/account/sessions/end/route')).POST;
const adminEndRoute = (await import('@/app/api/operators/[id]/sessions/end/route')).POST;
const directoryRoute = (await import('@/app/api/user-groups/[environment]/route')).GET;

afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';
const send = (cookie: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  harness.request(method, body, { cookie, headers });
const signedIn = async (cookie: string) =>
  (await directoryRoute(send(cookie, 'GET'), params({ environment: 'testing' }))).status === 200;

/** Invited and in; the session accepting the invitation opened is ended, so each test counts its own. */
async function addOperator(email: string) {
  const { id } = await harness.addOperator(email, 'support', PASSWORD);
  await server.database.db.deleteFrom('session').where('userId', '=', id).execute();
  return { id };
}

async function sessionsOf(cookie: string) {
  const response = await listRoute(send(cookie, 'GET'), params({}));
  expect(response.status).toBe(200);
  return (await response.json()).sessions as Array<{
    id: string;
    current: boolean;
    browser: string;
    address: string | null;
  }>;
}

describe('an operator’s sessions', () => {
  it('lists their own sessions only, this one first', async () => {
    await addOperator('list@sessions.example');
    const first = await harness.signIn('list@sessions.example', PASSWORD);
    const second = await harness.signIn('list@sessions.example', PASSWORD);
    const sessions = await sessionsOf(second);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]?.current).toBe(true);
    expect(sessions[1]?.current).toBe(false);
    expect((await sessionsOf(first))[0]?.id).toBe(sessions[1]?.id);
  });

  it('ends one session: that browser is signed out on its next request, the others stay', async () => {
    await addOperator('one@sessions.example');
    const phone = await harness.signIn('one@sessions.example', PASSWORD);
    const laptop = await harness.signIn('one@sessions.example', PASSWORD);
    const phoneSession = (await sessionsOf(phone))[0]?.id ?? '';
    const ended = await endRoute(send(laptop, 'POST', { sessionId: phoneSession }), params({}));
    expect(await ended.json()).toEqual({ ended: 1 });
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    // Not someone else's: an id of another operator's session ends nothing.
    const adminSession = (await sessionsOf(harness.adminCookie))[0]?.id ?? '';
    const foreign = await endRoute(send(laptop, 'POST', { sessionId: adminSession }), params({}));
    expect(await foreign.json()).toEqual({ ended: 0 });
    expect(await signedIn(harness.adminCookie)).toBe(true);
    // The current one ends by signing out.
    const own = await endRoute(
      send(laptop, 'POST', { sessionId: (await sessionsOf(laptop))[0]?.id }),
      params({}),
    );
    expect(own.status).toBe(409);
  });

  it('ends every other session, and an admin ends all of an operator’s; both on record', async () => {
    const { id } = await addOperator('all@sessions.example');
    const a = await harness.signIn('all@sessions.example', PASSWORD);
    const b = await harness.signIn('all@sessions.example', PASSWORD);
    const c = await harness.signIn('all@sessions.example', PASSWORD);
    expect(await (await endRoute(send(c, 'POST', { others: true }), params({}))).json()).toEqual({
      ended: 2,
    });
    expect([await signedIn(a), await signedIn(b), await signedIn(c)]).toEqual([false, false, true]);

    const byAdmin = await adminEndRoute(send(harness.adminCookie, 'POST'), params({ id }));
    expect(await byAdmin.json()).toEqual({ ended: 1 });
    expect(await signedIn(c)).toBe(false);
    const { events } = await listAuditEvents(server.database, { action: 'session.end' });
    expect(events.slice(0, 2).map((event) => [event.outcome, event.detail])).toEqual([
      ['success', 'all sessions of all@sessions.example'],
      ['success', 'all their other sessions'],
    ]);
  });

  it('shows the address the console decided, not one a client sent', async () => {
    await addOperator('address@sessions.example');
    // No trusted proxy: the socket's address (which the console's server writes) is the client's,
    // whatever X-Forwarded-For claims.
    const response = await handleAuthRequest(
      new Request(`${harness.origin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: harness.origin,
          'x-forwarded-for': '203.0.113.9',
          'x-console-peer-address': '192.0.2.7',
        },
        body: JSON.stringify({ email: 'address@sessions.example', password: PASSWORD }),
      }),
    );
    const cookie = response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    const [session] = await sessionsOf(cookie);
    expect(session?.address).toBe('192.0.2.7');
  });
});

describe('browserOf', () => {
  it('names the browser and the system', () => {
    expect(
      browserOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      ),
    ).toBe('Chrome on Windows');
    expect(browserOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) Gecko/20100101 Firefox/132.0')).toBe(
      'Firefox on macOS',
    );
    expect(browserOf(null)).toBe('Unknown browser');
  });
});
