/**
 * A console for route tests: a real User Group Service (SQLite) with a Testing key, a console
 * database of the test file's own (SQLite, or PostgreSQL in the PostgreSQL pass), the console's
 * configuration in the environment (read once, at the server's first use: call this before
 * importing any route), the first admin signed in, and requests that carry a session.
 */

import type { TestClock } from '@/lib/clock';
import { CLOSED_AFTER_MS } from '@/lib/db/read-pool/read-gate';
import { createSqliteBackend, createTestKeys, startTestService } from '@/lib/user-group-service/test-support';
import { createTestDatabaseLocation } from './console-test-database';

export async function startRouteTestConsole(
  prefix: string,
  port: number,
  env: Record<string, string> = {},
  { withCustomer = false, clock }: { withCustomer?: boolean; clock?: TestClock } = {},
) {
  const backend = await createSqliteBackend();
  const keys = await createTestKeys(backend.database);
  const service = await startTestService(backend.database);
  const consoleDatabase = await createTestDatabaseLocation(prefix);
  const origin = `http://127.0.0.1:${port}`;
  const admin = { email: `admin@${prefix}.example`, password: `${prefix}-admin-password` };
  Object.assign(process.env, {
    ...consoleDatabase.env,
    PORT: String(port),
    CONSOLE_URL: origin,
    CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
    CONSOLE_ADMIN_EMAIL: admin.email,
    CONSOLE_ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'silent',
    USER_GROUP_API_URL: service.url,
    USER_GROUP_API_KEY_TESTING: keys.testing,
    // Customer (production) only for the tests that need it: the others check it stays unconfigured.
    ...(withCustomer ? { USER_GROUP_API_KEY_CUSTOMER: keys.customer } : {}),
    USER_GROUP_API_REQUESTS_PER_MINUTE: 'unlimited',
    ...env,
  });
  const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
    (await import('@/lib/server')).consoleServer,
  );
  const { consoleServer, buildConsoleOnClock } = await import('@/lib/server');
  if (clock) buildConsoleOnClock(clock);
  const { ensureFirstAdmin } = await import('@/lib/auth/bootstrap');

  /** Signs in by email and password; answers the session's cookie header. */
  const signIn = async (email: string, password: string): Promise<string> => {
    const response = await handleAuthRequest(
      new Request(`${origin}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ email, password }),
      }),
    );
    if (response.status !== 200) throw new Error(`sign-in of ${email} answered ${response.status}`);
    // The heavy reads wait CLOSED_AFTER_MS past a sign-in, on the console's clock: moved on here.
    await clock?.advance(CLOSED_AFTER_MS);
    return response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
  };

  const server = await consoleServer();
  await ensureFirstAdmin(server.auth, server.database, server.config);
  const adminCookie = await signIn(admin.email, admin.password);

  /** A same-origin request with a session (the admin's unless another cookie is given). */
  const request = (
    method: string,
    body?: unknown,
    { cookie = adminCookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
  ) =>
    new Request(`${origin}/api/x`, {
      method,
      headers: { 'content-type': 'application/json', origin, cookie, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /**
   * Adds an operator the way the console does: the admin invites them, they accept the link with
   * their own password (and are signed in). Answers their id, the link and their session's cookie.
   */
  const addOperator = async (email: string, role: string, password: string) => {
    const { POST: invite } = await import('@/app/api/operators/route');
    const { POST: handleInvitationAccept } = await import('@/app/api/invitation/accept/route');
    const invited = await invite(request('POST', { email, name: email, role }), {
      params: Promise.resolve({}),
    });
    if (invited.status !== 201) throw new Error(`inviting ${email} answered ${invited.status}`);
    const { operator, invitation } = (await invited.json()) as {
      operator: { id: string };
      invitation: { link: string };
    };
    const secret = new URL(invitation.link).hash.slice(1);
    const accepted = await handleInvitationAccept(
      request('POST', { secret, password, confirmPassword: password }, { cookie: '' }),
    );
    if (accepted.status !== 200)
      throw new Error(`accepting ${email}'s invitation answered ${accepted.status}`);
    const cookie = accepted.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    return { id: operator.id, link: invitation.link, secret, cookie };
  };

  /** Makes a session's last authentication `minutes` old, as if that long had passed. */
  const ageSession = async (cookie: string, minutes: number) => {
    const token =
      decodeURIComponent(/console\.session_token=([^;]+)/.exec(cookie)?.[1] ?? '').split('.')[0] ?? '';
    const past = new Date(server.clock.now() - minutes * 60_000).toISOString();
    await server.database.db
      .updateTable('session')
      .set({ createdAt: past, steppedUpAt: null })
      .where('token', '=', token)
      .execute();
  };

  return {
    origin,
    server,
    ageSession,
    addOperator,
    service,
    /** The service's database, to start it again on the same port after stopping it. */
    serviceDatabase: backend.database,
    /** The service's Testing key, for calls behind the console's back. */
    testingKey: keys.testing,
    admin,
    adminCookie,
    signIn,
    request,
    params: <P>(value: P) => ({ params: Promise.resolve(value) }),
    async close() {
      await server.jobs.runner.stop();
      await server.database.close();
      await service.close();
      await backend.dispose();
      await consoleDatabase.dispose();
    },
  };
}
