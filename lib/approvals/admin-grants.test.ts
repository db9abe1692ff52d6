import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Every way of giving admin power waits for a second operator under grant-admin (a new admin, an
// admin enabled again, a fresh link for an admin not yet in), and the approver never holds the new
// admin's link. Against a real service and console database (SQLite, or PostgreSQL in its pass).
const harness = await startRouteTestConsole('admin-grants', 3969, {
  CONSOLE_REQUIRE_APPROVAL: 'grant-admin',
});
const { origin, params, server } = harness;
const db = server.database.db;
const { listAuditEvents } = await import('@/lib/audit/store');
const createRoute = (await import('@/app/api/operators/route')).POST;
const updateRoute = (await import('@/app/api/operators/[id]/route')).PATCH;
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;

const PASSWORD = 'a-long-enough-password';
let approver = '';

// A mail server that keeps what it is sent: a new admin's link reaches them by email only.
const mails: { to: string; link: string }[] = [];
const mailer = {
  send: async (email: { to: string; link: string }) => {
    mails.push({ to: email.to, link: email.link });
    return { status: 'sent' as const };
  },
};
server.invitationMailer = mailer as unknown as typeof server.invitationMailer;

const send = (cookie: string, path: string, body?: unknown, method = 'POST') =>
  new Request(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin, cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

type Pending = { approval: { id: string } };
const roleOf = async (id: string) =>
  (await db.selectFrom('user').select(['role', 'banned']).where('id', '=', id).executeTakeFirstOrThrow())
    .role;

beforeAll(async () => {
  const { id, cookie } = await harness.addOperator('approver@grants.example', 'support', PASSWORD);
  await db.updateTable('user').set({ role: 'admin' }).where('id', '=', id).execute();
  // Brought in by someone other than the requester (the directory, another admin).
  await sql`delete from operator_sponsor where user_id = ${id}`.execute(db);
  approver = cookie;
});
afterAll(() => harness.close());

/** An admin added through an approved request: its id, and the approver's answer. */
async function approvedAdmin(email: string) {
  const asked = await createRoute(
    send(harness.adminCookie, '/api/operators', {
      email,
      name: email,
      role: 'admin',
      approvalReason: 'on call',
    }),
    params({}),
  );
  expect(asked.status).toBe(202);
  const { approval } = (await asked.json()) as Pending;
  const approved = await createRoute(
    send(approver, `/api/operators?approval=${approval.id}`, { decision: 'approve' }),
    params({}),
  );
  expect(approved.status).toBe(200);
  const answer = (await approved.json()) as {
    approval: { outcome: string };
    result: { operator: { id: string; role: string }; invitation: Record<string, unknown> };
  };
  return answer;
}

describe('granting admin under the policy', () => {
  it('never hands the new admin’s invitation link to the approver', async () => {
    const answer = await approvedAdmin('new-admin@grants.example');
    expect(answer.approval.outcome).toBe('success');
    expect(answer.result.operator.role).toBe('admin');
    expect(answer.result.invitation).not.toHaveProperty('link');
    expect(JSON.stringify(answer)).not.toContain('/invitation#');
    expect(answer.result.invitation).toHaveProperty('expiresAt');
    // The invitation exists (the next test sends it again, which needs it open).
  });

  it('makes a fresh link for an admin not yet in wait, and hides it from the approver', async () => {
    const { result } = await approvedAdmin('resent@grants.example');
    const path = `/api/operators/${result.operator.id}/invitation`;
    const at = params({ id: result.operator.id });
    const bare = await resendRoute(send(harness.adminCookie, path), at);
    expect(bare.status).toBe(400);
    const asked = await resendRoute(send(harness.adminCookie, path, { approvalReason: 'lost the mail' }), at);
    expect(asked.status).toBe(202);
    const { approval } = (await asked.json()) as Pending;
    const approved = await resendRoute(
      send(approver, `${path}?approval=${approval.id}`, { decision: 'approve' }),
      at,
    );
    expect(approved.status).toBe(200);
    const text = await approved.text();
    expect(text).not.toContain('/invitation#');
    expect(JSON.parse(text)).toMatchObject({
      approval: { outcome: 'success' },
      result: { mail: { status: 'sent' } },
    });
    expect(mails.at(-1)?.to).toBe('resent@grants.example');
  });

  it('leaves a fresh link for a non-admin alone', async () => {
    const invited = await createRoute(
      send(harness.adminCookie, '/api/operators', {
        email: 'viewer@grants.example',
        name: 'V',
        role: 'viewer',
      }),
      params({}),
    );
    const { operator } = (await invited.json()) as { operator: { id: string } };
    const path = `/api/operators/${operator.id}/invitation`;
    const resent = await resendRoute(send(harness.adminCookie, path), params({ id: operator.id }));
    expect(resent.status).toBe(200);
    expect(((await resent.json()) as { link: string }).link).toContain('/invitation#');
  });

  it('makes enabling a disabled admin wait; disabling and enabling a non-admin do not', async () => {
    const { id } = await harness.addOperator('disabled-admin@grants.example', 'support', PASSWORD);
    const path = `/api/operators/${id}`;
    const at = params({ id });
    expect((await updateRoute(send(harness.adminCookie, path, { disabled: true }, 'PATCH'), at)).status).toBe(
      200,
    );
    expect(
      (await updateRoute(send(harness.adminCookie, path, { disabled: false }, 'PATCH'), at)).status,
    ).toBe(200);
    await db.updateTable('user').set({ role: 'admin' }).where('id', '=', id).execute();
    expect((await updateRoute(send(harness.adminCookie, path, { disabled: true }, 'PATCH'), at)).status).toBe(
      200,
    );
    const enable = { disabled: false, approvalReason: 'back from leave' };
    const asked = await updateRoute(send(harness.adminCookie, path, enable, 'PATCH'), at);
    expect(asked.status).toBe(202);
    const banned = await db
      .selectFrom('user')
      .select('banned')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Boolean(banned.banned)).toBe(true);
    const { approval } = (await asked.json()) as Pending;
    const decided = send(approver, `${path}?approval=${approval.id}`, { decision: 'approve' }, 'PATCH');
    expect((await updateRoute(decided, at)).status).toBe(200);
    const after = await db.selectFrom('user').select('banned').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Boolean(after.banned)).toBe(false);
    expect(await roleOf(id)).toBe('admin');
  });

  it('refuses a directory-managed operator at once (409, on record), never as a request', async () => {
    const { id } = await harness.addOperator('managed@grants.example', 'support', PASSWORD);
    const now = new Date().toISOString();
    await db
      .insertInto('scim_user')
      .values({
        user_id: id,
        user_name: 'managed@grants.example',
        user_name_key: 'managed@grants.example',
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    const before = await db.selectFrom('approval_request').select('id').execute();
    const answer = await updateRoute(
      send(harness.adminCookie, `/api/operators/${id}`, { role: 'admin', approvalReason: 'x' }, 'PATCH'),
      params({ id }),
    );
    expect(answer.status).toBe(409);
    expect(await db.selectFrom('approval_request').select('id').execute()).toHaveLength(before.length);
    const { events } = await listAuditEvents(server.database, { action: 'operator.set-role' });
    expect(events.find((event) => event.detail?.startsWith('managed@grants.example'))?.outcome).toBe(
      'conflict',
    );
  });
});

describe('a refused decision', () => {
  it('is on record with its code: its requester approving, a request decided or expired', async () => {
    const email = 'refusals@grants.example';
    const asked = await createRoute(
      send(harness.adminCookie, '/api/operators', { email, name: email, role: 'admin', approvalReason: 'x' }),
      params({}),
    );
    const { approval } = (await asked.json()) as Pending;
    const decide = (cookie: string) =>
      createRoute(
        send(cookie, `/api/operators?approval=${approval.id}`, { decision: 'approve' }),
        params({}),
      );
    expect((await decide(harness.adminCookie)).status).toBe(403);
    await db
      .updateTable('approval_request')
      .set({ expires_at: new Date(harness.server.clock.now() - 1000).toISOString() })
      .where('id', '=', approval.id)
      .execute();
    expect((await decide(approver)).status).toBe(409);
    const { events } = await listAuditEvents(server.database, { action: 'approval.approve' });
    const mine = events.filter((event) => event.detail?.includes(approval.id));
    expect(mine.map((event) => `${event.operator_email} ${event.outcome}`).sort()).toEqual(
      [`${harness.admin.email} forbidden`, 'approver@grants.example conflict'].sort(),
    );
    expect(mine[0]?.detail).toContain(`new operator ${email} as admin`);
  });
});

describe('a flood of requests', () => {
  const listRoute = async () => (await import('@/app/api/approvals/route')).GET;

  it('refuses a second request the same as one already waiting (409)', async () => {
    const { id } = await harness.addOperator('twice@grants.example', 'support', PASSWORD);
    const ask = (reason: string) =>
      updateRoute(
        send(harness.adminCookie, `/api/operators/${id}`, { role: 'admin', approvalReason: reason }, 'PATCH'),
        params({ id }),
      );
    expect((await ask('on call')).status).toBe(202);
    const again = await ask('on call, really');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
      'already waiting',
    );
    const pending = await db
      .selectFrom('approval_request')
      .select('id')
      .where('subject', '=', 'twice@grants.example as admin')
      .execute();
    expect(pending).toHaveLength(1);
  });

  it('hides no pending request from its approvers behind newer ones', async () => {
    const { id } = await harness.addOperator('hidden@grants.example', 'support', PASSWORD);
    const asked = await updateRoute(
      send(harness.adminCookie, `/api/operators/${id}`, { role: 'admin', approvalReason: 'real' }, 'PATCH'),
      params({ id }),
    );
    const { approval } = (await asked.json()) as Pending;
    const { recordApprovalRequest } = await import('@/lib/approvals/store');
    const later = harness.server.clock.now() + 60_000;
    for (let index = 0; index < 101; index += 1) {
      const flood = await recordApprovalRequest(
        db,
        server.jobs.vault,
        {
          action: 'grant-admin',
          environment: null,
          routeName: 'operators.update',
          method: 'PATCH',
          path: `/api/operators/flood-${index}`,
          permission: 'operators:manage',
          subject: `flood ${index}`,
          body: { role: 'admin' },
          secret: null,
          reason: 'flood',
          requestedBy: { id: 'nobody', email: 'flood@grants.example' },
          expiresAt: new Date(later + 3_600_000),
        },
        new Date(later + index),
      );
      await db.updateTable('approval_request').set({ state: 'rejected' }).where('id', '=', flood).execute();
    }
    const list = await (await listRoute())(
      new Request(`${origin}/api/approvals`, { headers: { origin, cookie: approver } }),
      params({}),
    );
    const { approvals, waiting } = (await list.json()) as { approvals: { id: string }[]; waiting: number };
    expect(approvals.map((each) => each.id)).toContain(approval.id);
    expect(waiting).toBeGreaterThanOrEqual(1);
  });
});
