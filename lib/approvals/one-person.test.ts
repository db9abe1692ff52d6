import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// One admin acting alone (their own sessions, invitations, links accepted in another browser) never
// gets a policy action approved: each attack of security round 4 (issue 41), against a real service
// and console database (SQLite, or PostgreSQL in its pass).
const harness = await startRouteTestConsole(
  'one-person',
  3977,
  { CONSOLE_REQUIRE_APPROVAL: 'delete:Testing,bulk-rotate:Customer,grant-admin' },
  { withCustomer: true },
);
const { origin, params, server } = harness;
const db = server.database.db;
const { listAuditEvents } = await import('@/lib/audit/store');
const createOperatorRoute = (await import('@/app/api/operators/route')).POST;
const updateRoute = (await import('@/app/api/operators/[id]/route')).PATCH;
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;
const acceptRoute = (await import('@/app/api/invitation/accept/route')).POST;
const lookupRoute = (await import('@/app/api/invitation/route')).POST;
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const createRotateJob = (await import('@/app/api/user-groups/[environment]/jobs/rotate/route')).POST;
const steerRoute = (await import('@/app/api/jobs/[id]/route')).POST;
const deleteRoute = (await import('@/app/api/user-groups/[environment]/delete/route')).POST;

const PASSWORD = 'a-long-enough-password';
const requester = harness.adminCookie;
let approver = '';

// A mail server that keeps what it is sent; set to null for a console without SMTP_URL.
const mails: { to: string; link: string }[] = [];
const mailer = {
  send: async (email: { to: string; link: string }) => {
    mails.push({ to: email.to, link: email.link });
    return { status: 'sent' as const };
  },
} as unknown as NonNullable<typeof server.invitationMailer>;
server.invitationMailer = mailer;

const send = (cookie: string, at: string, body?: unknown, method = 'POST') =>
  new Request(`${origin}${at}`, {
    method,
    headers: { 'content-type': 'application/json', origin, cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const secretOf = (link: string) => new URL(link).hash.slice(1);
const messageOf = async (answer: Response) =>
  ((await answer.json()) as { error: { message: string } }).error.message;
type Pending = { approval: { id: string } };

/** Accepts a link in a browser of its own: answers the new session's cookie, or the refusal's status. */
async function accept(link: string): Promise<{ status: number; cookie: string }> {
  const secret = secretOf(link);
  const answer = await acceptRoute(
    new Request(`${origin}/api/invitation/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ secret, password: PASSWORD, confirmPassword: PASSWORD }),
    }),
  );
  const cookie = answer.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  return { status: answer.status, cookie };
}

const lookUp = (link: string) =>
  lookupRoute(
    new Request(`${origin}/api/invitation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ secret: secretOf(link) }),
    }),
  );

/** Invites someone at a role no policy action needs: answers their id and the link shown to the admin. */
async function inviteViewer(email: string): Promise<{ id: string; link: string }> {
  const answer = await createOperatorRoute(
    send(requester, '/api/operators', { email, name: email, role: 'viewer' }),
    params({}),
  );
  expect(answer.status).toBe(201);
  const { operator, invitation } = (await answer.json()) as {
    operator: { id: string };
    invitation: { link: string };
  };
  return { id: operator.id, link: invitation.link };
}

/** The requester asks to give `id` a role; the honest approver approves it. */
async function approvedRole(id: string, role: 'admin' | 'support'): Promise<void> {
  const asked = await updateRoute(
    send(requester, `/api/operators/${id}`, { role, approvalReason: 'on call' }, 'PATCH'),
    params({ id }),
  );
  expect(asked.status).toBe(202);
  const { approval } = (await asked.json()) as Pending;
  const approved = await updateRoute(
    send(approver, `/api/operators/${id}?approval=${approval.id}`, { decision: 'approve' }, 'PATCH'),
    params({ id }),
  );
  expect(approved.status).toBe(200);
  expect(JSON.stringify(await approved.clone().json())).not.toContain('/invitation#');
}

beforeAll(async () => {
  const { id, cookie } = await harness.addOperator('approver@one-person.example', 'viewer', PASSWORD);
  // An admin someone else brought in (the directory, say): behind the policy's back.
  await db.updateTable('user').set({ role: 'admin' }).where('id', '=', id).execute();
  await sql`delete from operator_sponsor where user_id = ${id}`.execute(db);
  approver = cookie;
});
afterAll(() => harness.close());

describe('a puppet account never approves', () => {
  it('a support person the requester invited does not approve their Customer bulk rotation (403, on record)', async () => {
    // Inviting a support person is itself a request: support can approve a Customer bulk rotation.
    const invited = await createOperatorRoute(
      send(requester, '/api/operators', {
        email: 'puppet@one-person.example',
        name: 'Puppet',
        role: 'support',
        approvalReason: 'more hands',
      }),
      params({}),
    );
    expect(invited.status).toBe(202);
    const { approval } = (await invited.json()) as Pending;
    const made = await createOperatorRoute(
      send(approver, `/api/operators?approval=${approval.id}`, { decision: 'approve' }),
      params({}),
    );
    expect(made.status).toBe(200);
    expect(await made.text()).not.toContain('/invitation#');
    // The requester holds the puppet's mailbox: the emailed link is theirs to accept.
    const link = mails.find((mail) => mail.to === 'puppet@one-person.example')?.link ?? '';
    const puppet = await accept(link);
    expect(puppet.status).toBe(200);

    const inCustomer = params({ environment: 'customer' });
    const group = await getOrCreate(
      send(requester, '/api/x', { user_group_id: 'puppet-rotated' }),
      inCustomer,
    );
    expect(group.status).toBe(200);
    const drafted = await createRotateJob(
      send(requester, '/api/x', { source: 'chosen', userGroupIds: ['puppet-rotated'] }),
      inCustomer,
    );
    expect(drafted.status).toBe(200);
    const job = (await drafted.json()) as { id: string };
    const at = `/api/jobs/${job.id}`;
    const started = await steerRoute(
      send(requester, at, { action: 'start', confirmation: '1', approvalReason: 'leaked tokens' }),
      params({ id: job.id }),
    );
    expect(started.status).toBe(202);
    const { approval: rotation } = (await started.json()) as Pending;

    const byPuppet = await steerRoute(
      send(puppet.cookie, `${at}?approval=${rotation.id}`, { decision: 'approve' }),
      params({ id: job.id }),
    );
    expect(byPuppet.status).toBe(403);
    expect(await messageOf(byPuppet)).toContain(`${harness.admin.email} invited you`);
    const stored = await db
      .selectFrom('approval_request')
      .select('state')
      .where('id', '=', rotation.id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe('pending');
    const { events } = await listAuditEvents(server.database, { action: 'approval.approve' });
    expect(
      events.find(
        (event) =>
          event.detail?.includes(rotation.id) && event.operator_email === 'puppet@one-person.example',
      )?.outcome,
    ).toBe('forbidden');
    // A second person may: the honest approver.
    const byApprover = await steerRoute(
      send(approver, `${at}?approval=${rotation.id}`, { decision: 'approve' }),
      params({ id: job.id }),
    );
    expect(byApprover.status).toBe(200);
  });

  it('nor does an operator the requester raised, through someone else’s approval', async () => {
    const { id } = await harness.addOperator('raised@one-person.example', 'viewer', PASSWORD);
    // Invited by the harness's admin, the requester; cleared, as if the directory had brought them.
    await sql`delete from operator_sponsor where user_id = ${id}`.execute(db);
    await approvedRole(id, 'admin');
    const raised = await harness.signIn('raised@one-person.example', PASSWORD);
    const token = (
      (await (
        await getOrCreate(
          send(requester, '/api/x', { user_group_id: 'raised-delete' }),
          params({ environment: 'testing' }),
        )
      ).json()) as { user_group: { token: string } }
    ).user_group.token;
    const asked = await deleteRoute(
      send(requester, '/api/user-groups/testing/delete', {
        user_group_id: 'raised-delete',
        current_token: token,
        approvalReason: 'gone',
      }),
      params({ environment: 'testing' }),
    );
    const { approval } = (await asked.json()) as Pending;
    const byRaised = await deleteRoute(
      send(raised, `/api/user-groups/testing/delete?approval=${approval.id}`, { decision: 'approve' }),
      params({ environment: 'testing' }),
    );
    expect(byRaised.status).toBe(403);
    expect(await messageOf(byRaised)).toContain('gave you your role');
  });
});

describe('whoever brought in whom, those two never decide each other’s requests', () => {
  it('the requester does not approve a request of the admin they invited (403, on record)', async () => {
    // The requester invites V as viewer (the link is shown to them), accepts it in another browser,
    // and gets V made admin by the honest approver, who cannot tell the requester holds V.
    const { id, link } = await inviteViewer('second-self@one-person.example');
    expect((await accept(link)).status).toBe(200);
    await approvedRole(id, 'admin');
    const secondSelf = await harness.signIn('second-self@one-person.example', PASSWORD);
    const inTesting = params({ environment: 'testing' });
    const made = await getOrCreate(
      send(secondSelf, '/api/x', { user_group_id: 'second-self-delete' }),
      inTesting,
    );
    const { token } = ((await made.json()) as { user_group: { token: string } }).user_group;
    const asked = await deleteRoute(
      send(secondSelf, '/api/user-groups/testing/delete', {
        user_group_id: 'second-self-delete',
        current_token: token,
        approvalReason: 'gone',
      }),
      inTesting,
    );
    expect(asked.status).toBe(202);
    const { approval } = (await asked.json()) as Pending;
    const at = `/api/user-groups/testing/delete?approval=${approval.id}`;
    const byInviter = await deleteRoute(send(requester, at, { decision: 'approve' }), inTesting);
    expect(byInviter.status).toBe(403);
    expect(await messageOf(byInviter)).toContain('You invited second-self@one-person.example');
    const stored = await db
      .selectFrom('approval_request')
      .select('state')
      .where('id', '=', approval.id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe('pending');
    const { events } = await listAuditEvents(server.database, { action: 'approval.approve' });
    expect(
      events.find(
        (event) => event.detail?.includes(approval.id) && event.operator_email === harness.admin.email,
      )?.outcome,
    ).toBe('forbidden');
    // A second person may.
    expect((await deleteRoute(send(approver, at, { decision: 'approve' }), inTesting)).status).toBe(200);
  });
});

describe('a policy one admin could get round is refused at start', () => {
  it.each(['delete:Customer', 'bulk-rotate:Customer', 'delete,bulk-rotate:Testing'])(
    '%s without grant-admin',
    (policy) => {
      expect(() => parseConfig({ CONSOLE_REQUIRE_APPROVAL: policy })).toThrow(
        /without grant-admin: one admin alone could invite a second account/,
      );
    },
  );

  it('holds with grant-admin, and grant-admin alone', () => {
    for (const policy of ['delete:Customer,grant-admin', 'grant-admin'])
      expect(parseConfig({ CONSOLE_REQUIRE_APPROVAL: policy }).approvals.rules.length).toBeGreaterThan(0);
  });
});

describe('SSO and the directory make approvers without a second person', () => {
  const sso = { OIDC_ISSUER: 'https://idp.one-person.example', OIDC_CLIENT_ID: 'console' };

  it.each([
    ['admin', 'delete:Customer,grant-admin'],
    ['support', 'bulk-rotate:Customer,grant-admin'],
    ['admin', 'grant-admin'],
  ])('refuses OIDC_NEW_OPERATOR_ROLE=%s under %s at start', (role, policy) => {
    expect(() =>
      parseConfig({ ...sso, CONSOLE_REQUIRE_APPROVAL: policy, OIDC_NEW_OPERATOR_ROLE: role }),
    ).toThrow(
      /SSO newcomers would approve without a second person; set OIDC_NEW_OPERATOR_ROLE=viewer or none, then raise them through a grant/,
    );
  });

  it('starts with a newcomer role that approves nothing the policy names, or without a policy or SSO', () => {
    const starts = (env: Record<string, string>) => expect(() => parseConfig(env)).not.toThrow();
    starts({
      ...sso,
      CONSOLE_REQUIRE_APPROVAL: 'delete:Customer,grant-admin',
      OIDC_NEW_OPERATOR_ROLE: 'viewer',
    });
    starts({
      ...sso,
      CONSOLE_REQUIRE_APPROVAL: 'delete:Customer,grant-admin',
      OIDC_NEW_OPERATOR_ROLE: 'support',
    });
    starts({ ...sso, OIDC_NEW_OPERATOR_ROLE: 'admin' });
    starts({ CONSOLE_REQUIRE_APPROVAL: 'grant-admin', OIDC_NEW_OPERATOR_ROLE: 'admin' });
  });

  it('the start warning names every SCIM mapping to a role that can approve, SCIM_DEFAULT_ROLE too', async () => {
    const { scimStartupWarnings } = await import('@/lib/config/scim');
    const warnings = (env: Record<string, string>) => {
      const config = parseConfig({ SCIM_TOKEN: 's'.repeat(32), ...env });
      return scimStartupWarnings(config.scim, config.approvals.rules).filter((line) =>
        line.startsWith('warning: CONSOLE_REQUIRE_APPROVAL'),
      );
    };
    const policy = 'bulk-rotate:Customer,grant-admin';
    const [support] = warnings({
      CONSOLE_REQUIRE_APPROVAL: policy,
      SCIM_GROUP_ROLES: 'Console Support=support',
    });
    expect(support).toContain('SCIM_GROUP_ROLES maps "console support" to support');
    expect(support).toContain('the directory makes support people without a second person');
    const [fallback] = warnings({ CONSOLE_REQUIRE_APPROVAL: policy, SCIM_DEFAULT_ROLE: 'support' });
    expect(fallback).toContain('SCIM_DEFAULT_ROLE is support');
    const [both] = warnings({
      CONSOLE_REQUIRE_APPROVAL: policy,
      SCIM_GROUP_ROLES: 'Admins=admin,Helpers=support',
    });
    expect(both).toContain('"admins" to admin, "helpers" to support');
    // Support approves nothing a delete-only policy names: nothing to say.
    expect(
      warnings({ CONSOLE_REQUIRE_APPROVAL: 'delete:Customer,grant-admin', SCIM_DEFAULT_ROLE: 'support' }),
    ).toEqual([]);
  });
});

describe('no link to a new admin reaches the requester or the approver', () => {
  it('ends the requester’s viewer link once the promotion to admin is approved', async () => {
    const { id, link } = await inviteViewer('old-link@one-person.example');
    await approvedRole(id, 'admin');
    expect((await lookUp(link)).status).toBe(404);
    expect((await accept(link)).status).toBe(404);
    // Their own link went to them by email.
    expect(mails.at(-1)?.to).toBe('old-link@one-person.example');
    expect((await accept(mails.at(-1)?.link ?? '')).status).toBe(200);
  });

  it('ends a link sent after a demotion once the operator is made admin again', async () => {
    const { id } = await inviteViewer('demoted@one-person.example');
    await approvedRole(id, 'admin');
    const demoted = await updateRoute(
      send(requester, `/api/operators/${id}`, { role: 'viewer' }, 'PATCH'),
      params({ id }),
    );
    expect(demoted.status).toBe(200);
    const resent = await resendRoute(send(requester, `/api/operators/${id}/invitation`), params({ id }));
    expect(resent.status).toBe(200);
    const { link } = (await resent.json()) as { link: string };
    await approvedRole(id, 'admin');
    expect((await accept(link)).status).toBe(404);
  });

  describe('without SMTP_URL', () => {
    beforeAll(() => {
      server.invitationMailer = null;
    });
    afterAll(() => {
      server.invitationMailer = mailer;
    });

    it('answers at once how a new admin gets in, and asks nobody to approve', async () => {
      const before = (await db.selectFrom('approval_request').select('id').execute()).length;
      const answer = await createOperatorRoute(
        send(requester, '/api/operators', {
          email: 'no-mail-admin@one-person.example',
          name: 'N',
          role: 'admin',
          approvalReason: 'nights',
        }),
        params({}),
      );
      expect(answer.status).toBe(409);
      expect(await messageOf(answer)).toMatch(
        /Invite them as viewer with their own link; once they have signed in, ask to make them admin/,
      );
      expect(await db.selectFrom('approval_request').select('id').execute()).toHaveLength(before);
      const { events } = await listAuditEvents(server.database, { action: 'operator.create' });
      expect(events.find((event) => event.detail?.startsWith('no-mail-admin@'))?.outcome).toBe('conflict');
    });

    it('refuses to raise someone not in yet, and a new link for an admin not in yet (409, with words)', async () => {
      const { id } = await inviteViewer('not-in@one-person.example');
      const raise = await updateRoute(
        send(requester, `/api/operators/${id}`, { role: 'support', approvalReason: 'x' }, 'PATCH'),
        params({ id }),
      );
      expect(raise.status).toBe(409);
      expect(await messageOf(raise)).toContain('has not accepted their invitation yet');

      server.invitationMailer = mailer;
      const { id: adminId } = await inviteViewer('admin-not-in@one-person.example');
      await approvedRole(adminId, 'admin');
      server.invitationMailer = null;
      const resent = await resendRoute(
        send(requester, `/api/operators/${adminId}/invitation`, { approvalReason: 'lost it' }),
        params({ id: adminId }),
      );
      expect(resent.status).toBe(409);
      expect(await messageOf(resent)).toContain('Without SMTP_URL');
    });
  });
});

describe('a withdrawn request’s sealed token', () => {
  it.skipIf(server.database.dialect !== 'sqlite')('is gone from the SQLite file and its -wal', async () => {
    // lib/db opens SQLite with secure_delete on; said again here for this connection.
    await sql`PRAGMA secure_delete = ON`.execute(db);
    const inTesting = params({ environment: 'testing' });
    const made = await getOrCreate(send(requester, '/api/x', { user_group_id: 'wal-withdrawn' }), inTesting);
    const { token } = ((await made.json()) as { user_group: { token: string } }).user_group;
    const asked = await deleteRoute(
      send(requester, '/api/user-groups/testing/delete', {
        user_group_id: 'wal-withdrawn',
        current_token: token,
        approvalReason: 'wal',
      }),
      inTesting,
    );
    const { approval } = (await asked.json()) as Pending;
    const { sealed_secret: sealed } = await db
      .selectFrom('approval_request')
      .select('sealed_secret')
      .where('id', '=', approval.id)
      .executeTakeFirstOrThrow();
    expect(sealed).toBeTruthy();
    const withdrawn = await deleteRoute(
      send(requester, `/api/user-groups/testing/delete?approval=${approval.id}`, { decision: 'withdraw' }),
      inTesting,
    );
    expect(withdrawn.status).toBe(200);
    const file = path.join(String(process.env.DATA_DIR), 'console.sqlite');
    for (const each of [file, `${file}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(each);
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(String(sealed)))).toBe(false);
      // Any long piece of it, too (a page may split a value only across overflow pages).
      expect(bytes.includes(Buffer.from(String(sealed).slice(0, 40)))).toBe(false);
    }
  });
});

// Last in this file: it fills the sponsor table from the links and the log, the harness's approver's
// too (whom the tests above cleared, as if someone else had brought them in).
describe('an operator brought in before the sponsor table came', () => {
  it('is found in the links and the audit log by the migration, and does not approve', async () => {
    const { migrateApprovals } = await import('@/lib/approvals/schema');
    // Before the upgrade: invited as viewer (link shown to the requester), accepted in another
    // browser, made admin through an honest approver.
    const { id, link } = await inviteViewer('before-upgrade@one-person.example');
    expect((await accept(link)).status).toBe(200);
    await approvedRole(id, 'admin');
    // The console as it was: no sponsor table, its migrations not run.
    await db.schema.dropTable('operator_sponsor').execute();
    await sql`delete from approvals_migration where name like '2026-11-28-%'`.execute(db);
    await migrateApprovals(server.database);

    const rows = await sql<{ how: string; sponsor_id: string }>`
      select how, sponsor_id from operator_sponsor where user_id = ${id}`.execute(db);
    const { id: requesterId } = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', harness.admin.email)
      .executeTakeFirstOrThrow();
    // The role is in the audit log only (the invitation table holds links, not roles).
    expect(
      rows.rows
        .filter((row) => row.sponsor_id === requesterId)
        .map((row) => row.how)
        .sort(),
    ).toEqual(['invited', 'role']);

    const puppet = await harness.signIn('before-upgrade@one-person.example', PASSWORD);
    const inTesting = params({ environment: 'testing' });
    const made = await getOrCreate(send(requester, '/api/x', { user_group_id: 'before-upgrade' }), inTesting);
    const { token } = ((await made.json()) as { user_group: { token: string } }).user_group;
    const asked = await deleteRoute(
      send(requester, '/api/user-groups/testing/delete', {
        user_group_id: 'before-upgrade',
        current_token: token,
        approvalReason: 'gone',
      }),
      inTesting,
    );
    const { approval } = (await asked.json()) as Pending;
    const byPuppet = await deleteRoute(
      send(puppet, `/api/user-groups/testing/delete?approval=${approval.id}`, { decision: 'approve' }),
      inTesting,
    );
    expect(byPuppet.status).toBe(403);
    expect(await messageOf(byPuppet)).toContain('invited you');
  });
});
