import { afterAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Invitations against a real console database (SQLite, or PostgreSQL in the PostgreSQL pass): an
// admin adds an operator and gets a link; the link sets their own password once, within 72 h;
// sending it again voids the old link, revoking removes the operator; every step on record.
const harness = await startRouteTestConsole('invitations', 3971);
const { params, server } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const handleInvitationAccept = (await import('@/app/api/invitation/accept/route')).POST;
const handleInvitationLookup = (await import('@/app/api/invitation/route')).POST;
const { hashInvitationSecret } = await import('@/lib/invitations/store');
const operatorsRoute = await import('@/app/api/operators/route');
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;
const revokeRoute = (await import('@/app/api/operators/[id]/invitation/revoke/route')).POST;
const directoryRoute = (await import('@/app/api/user-groups/[environment]/route')).GET;

afterAll(() => harness.close());

const PASSWORD = 'my-own-long-password';
const anonymous = (body: unknown, headers: Record<string, string> = {}) =>
  harness.request('POST', body, { cookie: '', headers });
const accept = (secret: string, password = PASSWORD) =>
  handleInvitationAccept(anonymous({ secret, password, confirmPassword: password }));
const secretOf = (link: string) => new URL(link).hash.slice(1);
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
const signIn = (email: string, password: string) =>
  handleAuthRequest(
    new Request(`${harness.origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: harness.origin },
      body: JSON.stringify({ email, password }),
    }),
  );

async function invite(email: string, role = 'support') {
  const response = await operatorsRoute.POST(
    harness.request('POST', { email, name: email, role }),
    params({}),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as {
    operator: { id: string; invitationExpiresAt: string | null };
    invitation: { link: string; expiresAt: string };
  };
}

async function listed(email: string) {
  const response = await operatorsRoute.GET(harness.request('GET'), params({}));
  const { operators } = (await response.json()) as {
    operators: Array<{ email: string; invitationExpiresAt: string | null }>;
  };
  return operators.find((operator) => operator.email === email);
}

async function entries(action: AuditAction) {
  return (await listAuditEvents(server.database, { action })).events;
}

describe('invitations', () => {
  it('makes a 72-hour link whose secret is in the fragment, and stores only its hash', async () => {
    const before = harness.server.clock.now();
    const { operator, invitation } = await invite('new@invitations.example');
    const link = new URL(invitation.link);
    expect(`${link.origin}${link.pathname}${link.search}`).toBe(`${harness.origin}/invitation`);
    const secret = secretOf(invitation.link);
    expect(secret).toMatch(/^[\w-]{43}$/);
    const hours = (Date.parse(invitation.expiresAt) - before) / 3_600_000;
    expect(hours).toBeGreaterThan(71.99);
    expect(hours).toBeLessThan(72.01);
    expect(operator.invitationExpiresAt).toBe(invitation.expiresAt);
    expect((await listed('new@invitations.example'))?.invitationExpiresAt).toBe(invitation.expiresAt);

    const rows = await server.database.db.selectFrom('operator_invitation').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.some((row) => row.secret_hash === hashInvitationSecret(secret))).toBe(true);
    // No password yet: nobody can sign in as them, the admin included.
    const noPassword = await server.database.db
      .selectFrom('account')
      .select('id')
      .where('userId', '=', operator.id)
      .execute();
    expect(noPassword).toEqual([]);
    const [made] = await entries('invitation.create');
    expect([made?.outcome, made?.detail]).toEqual(['success', 'new@invitations.example: new operator']);
  });

  it('sets the password they choose and signs them in, once', async () => {
    const { invitation } = await invite('accept@invitations.example', 'viewer');
    const secret = secretOf(invitation.link);
    const looked = await handleInvitationLookup(anonymous({ secret }));
    expect(await looked.json()).toEqual({
      email: 'accept@invitations.example',
      role: 'viewer',
      expiresAt: invitation.expiresAt,
    });

    const tooShort = await accept(secret, 'short');
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json()).error.fields.password).toMatch(/at least 12/);
    const mismatch = await handleInvitationAccept(
      anonymous({ secret, password: PASSWORD, confirmPassword: `${PASSWORD}x` }),
    );
    expect((await mismatch.json()).error.fields).toEqual({ confirmPassword: 'does not match the password' });

    const accepted = await accept(secret);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ email: 'accept@invitations.example' });
    const cookie = cookieOf(accepted);
    const directory = await directoryRoute(harness.request('GET', undefined, { cookie }), {
      params: Promise.resolve({ environment: 'testing' }),
    });
    expect(directory.status).toBe(200);
    expect((await listed('accept@invitations.example'))?.invitationExpiresAt).toBeNull();
    expect((await signIn('accept@invitations.example', PASSWORD)).status).toBe(200);

    const again = await accept(secret, 'another-long-password');
    expect(again.status).toBe(404);
    expect((await again.json()).error.message).toMatch(/used already/);
    expect((await signIn('accept@invitations.example', 'another-long-password')).status).toBe(401);
    const lookedAgain = await handleInvitationLookup(anonymous({ secret }));
    expect((await lookedAgain.json()).error.message).toMatch(/used already/);

    const uses = await entries('invitation.use');
    expect(uses.map((event) => [event.operator_email, event.outcome])).toEqual([
      // The second try: refused, on record without a name (anyone may send a link).
      [null, 'not_found'],
      ['accept@invitations.example', 'success'],
    ]);
    const [signedIn] = (await entries('sign-in')).filter(
      (event) => event.operator_email === 'accept@invitations.example' && event.outcome === 'success',
    );
    expect(signedIn).toBeDefined();
  });

  it('refuses an expired link, and one it never made', async () => {
    const { invitation } = await invite('late@invitations.example');
    const secret = secretOf(invitation.link);
    await server.database.db
      .updateTable('operator_invitation')
      .set({ expires_at: new Date(harness.server.clock.now() - 1000).toISOString() })
      .where('secret_hash', '=', hashInvitationSecret(secret))
      .execute();
    const expired = await accept(secret);
    expect(expired.status).toBe(404);
    expect((await expired.json()).error).toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/expired/),
    });
    expect(
      await server.database.db
        .selectFrom('account')
        .select('id')
        .where('userId', '=', (await invite('x@invitations.example')).operator.id)
        .execute(),
    ).toEqual([]);

    const unknown = await accept('A'.repeat(43));
    expect((await unknown.json()).error.message).toMatch(/not one the console made/);
    // An expired invitation is still listed, to be sent again.
    expect((await listed('late@invitations.example'))?.invitationExpiresAt).toBeDefined();
  });

  it('sending again voids the old link at once; both on record', async () => {
    const { operator, invitation } = await invite('resend@invitations.example');
    const resent = await resendRoute(harness.request('POST'), params({ id: operator.id }));
    expect(resent.status).toBe(200);
    const fresh = (await resent.json()) as { link: string; expiresAt: string };
    expect(fresh.link).not.toBe(invitation.link);

    const old = await accept(secretOf(invitation.link));
    expect((await old.json()).error.message).toMatch(/replaced or withdrawn/);
    expect((await accept(secretOf(fresh.link))).status).toBe(200);

    const [voided] = await entries('invitation.void');
    expect([voided?.outcome, voided?.detail]).toEqual(['success', 'resend@invitations.example: sent again']);
    const [made] = await entries('invitation.create');
    expect(made?.detail).toBe('resend@invitations.example: sent again, the earlier link voided');
    // In now: nothing to send again.
    const refused = await resendRoute(harness.request('POST'), params({ id: operator.id }));
    expect(refused.status).toBe(409);
  });

  it('revoking voids the link and removes the operator who never came in', async () => {
    const { operator, invitation } = await invite('revoke@invitations.example');
    const revoked = await revokeRoute(harness.request('POST'), params({ id: operator.id }));
    expect(await revoked.json()).toEqual({ done: true });
    expect(await listed('revoke@invitations.example')).toBeUndefined();
    expect((await accept(secretOf(invitation.link))).status).toBe(404);
    const [voided] = await entries('invitation.void');
    expect(voided?.detail).toBe('revoke@invitations.example: withdrawn, operator removed');
  });

  it('refuses another site, and a non-admin cannot invite', async () => {
    const { invitation } = await invite('site@invitations.example');
    const crossSite = await handleInvitationAccept(
      anonymous(
        { secret: secretOf(invitation.link), password: PASSWORD, confirmPassword: PASSWORD },
        { origin: 'https://evil.example' },
      ),
    );
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe('cross_site_request');

    const support = (await harness.addOperator('support@invitations.example', 'support', PASSWORD)).cookie;
    const refused = await operatorsRoute.POST(
      harness.request(
        'POST',
        { email: 'no@invitations.example', name: 'No', role: 'admin' },
        { cookie: support },
      ),
      params({}),
    );
    expect(refused.status).toBe(403);
  });

  it('never takes a password from the admin', async () => {
    const response = await operatorsRoute.POST(
      harness.request('POST', {
        email: 'chosen@invitations.example',
        name: 'Chosen',
        role: 'viewer',
        password: 'admin-chosen-password',
      }),
      params({}),
    );
    // The field is not part of the request any more: the operator is invited, without a password.
    expect(response.status).toBe(201);
    expect((await signIn('chosen@invitations.example', 'admin-chosen-password')).status).toBe(401);
  });
});
