import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Two-person approval against a real service and a real console database (SQLite, or PostgreSQL in
// the PostgreSQL pass, where two approvers at once race on two pool connections): the policy makes a
// Testing delete and granting admin wait for a second operator who may do them, never their requester.
const harness = await startRouteTestConsole('approvals', 3961, {
  CONSOLE_REQUIRE_APPROVAL: 'delete:Testing,grant-admin',
});
const { origin, params, server } = harness;
const db = server.database.db;
const { listAuditEvents } = await import('@/lib/audit/store');
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const remove = (await import('@/app/api/user-groups/[environment]/delete/route')).POST;
const operatorRoute = (await import('@/app/api/operators/[id]/route')).PATCH;
const listRoute = (await import('@/app/api/approvals/route')).GET;
const readRoute = (await import('@/app/api/approvals/[id]/route')).GET;
const countRoute = (await import('@/app/api/approvals/waiting/route')).GET;
const { expireOnce } = await import('@/lib/approvals/server');

const PASSWORD = 'a-long-enough-password';
const DELETE_PATH = '/api/user-groups/testing/delete';
const inTesting = params({ environment: 'testing' });
const cookies: Record<'requester' | 'approver' | 'third' | 'support', string> = {
  requester: harness.adminCookie,
  approver: '',
  third: '',
  support: '',
};
type Who = keyof typeof cookies;
let supportId = '';

const send = (who: Who, path: string, body: unknown, method = 'POST') =>
  new Request(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin, cookie: cookies[who] },
    body: JSON.stringify(body),
  });
const get = (who: Who, path: string) =>
  new Request(`${origin}${path}`, { headers: { origin, cookie: cookies[who] } });

async function admin(email: string): Promise<string> {
  const { id } = await harness.addOperator(email, 'support', PASSWORD);
  // Granting admin is itself under the policy: these helpers are made admins behind its back, and
  // as if someone other than the requester had brought them in (the directory, another admin).
  await db.updateTable('user').set({ role: 'admin' }).where('id', '=', id).execute();
  await sql`delete from operator_sponsor where user_id = ${id}`.execute(db);
  return harness.signIn(email, PASSWORD);
}

async function group(id: string): Promise<string> {
  const answer = await getOrCreate(send('requester', '/api/x', { user_group_id: id }), inTesting);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { user_group: { token: string } }).user_group.token;
}

/** Whether the service still has the group (a get-or-create of it says it is new when it had gone). */
async function stillThere(id: string): Promise<boolean> {
  const answer = await getOrCreate(send('approver', '/api/x', { user_group_id: id }), inTesting);
  return !((await answer.json()) as { new_user_group: boolean }).new_user_group;
}

async function requestDelete(id: string, token: string, reason = 'customer left'): Promise<string> {
  const answer = await remove(
    send('requester', DELETE_PATH, { user_group_id: id, current_token: token, approvalReason: reason }),
    inTesting,
  );
  expect(answer.status).toBe(202);
  const { approval } = (await answer.json()) as { approval: { id: string; state: string } };
  expect(approval.state).toBe('pending');
  return approval.id;
}

const decide = (who: Who, id: string, decision: unknown, path = DELETE_PATH) =>
  remove(send(who, `${path}?approval=${id}`, decision), inTesting);

const row = (id: string) =>
  db.selectFrom('approval_request').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function entries(action: AuditAction) {
  return (await listAuditEvents(server.database, { action })).events;
}

beforeAll(async () => {
  cookies.approver = await admin('approver@approvals.example');
  cookies.third = await admin('third@approvals.example');
  const support = await harness.addOperator('support@approvals.example', 'support', PASSWORD);
  supportId = support.id;
  cookies.support = support.cookie;
});

afterAll(() => harness.close());

describe('an action the policy names waits for a second operator', () => {
  it('records a pending request, its token sealed, and deletes nothing yet', async () => {
    const token = await group('approve-me');
    const id = await requestDelete('approve-me', token);
    const stored = await row(id);
    expect(stored.body).not.toContain(token);
    expect(stored.sealed_secret).not.toBeNull();
    expect(stored.sealed_secret).not.toContain(token);
    expect(await stillThere('approve-me')).toBe(true);
    const [requested] = await entries('approval.request');
    expect(requested).toMatchObject({ operator_email: harness.admin.email, outcome: 'success' });
    expect(requested?.user_group_id).toBe('approve-me');
  });

  it('asks for a reason', async () => {
    const token = await group('no-reason');
    const answer = await remove(
      send('requester', DELETE_PATH, { user_group_id: 'no-reason', current_token: token }),
      inTesting,
    );
    expect(answer.status).toBe(400);
    expect(
      ((await answer.json()) as { error: { fields: Record<string, string> } }).error.fields,
    ).toHaveProperty('approvalReason');
  });

  it('is approved by another operator who may do it, never by its requester, and carried out once', async () => {
    const token = await group('carried-out');
    const id = await requestDelete('carried-out', token);
    // Its requester, from this session or another, may not approve it.
    const otherSession = await harness.signIn(harness.admin.email, harness.admin.password);
    expect((await decide('requester', id, { decision: 'approve' })).status).toBe(403);
    cookies.requester = otherSession;
    expect((await decide('requester', id, { decision: 'approve' })).status).toBe(403);
    cookies.requester = harness.adminCookie;
    // A support person may not delete: nor approve a delete.
    expect((await decide('support', id, { decision: 'approve' })).status).toBe(403);
    // The body is the request's: an approval cannot change it.
    const changed = await decide('approver', id, { decision: 'approve', user_group_id: 'another' });
    expect(changed.status).toBe(400);
    // Only at this route: the same id sent elsewhere is nothing.
    expect(
      (await decide('approver', id, { decision: 'approve' }, '/api/user-groups/testing/rotate')).status,
    ).toBe(404);

    const approved = await decide('approver', id, {
      decision: 'approve',
      reason: 'checked with the customer',
    });
    expect(approved.status).toBe(200);
    const answer = (await approved.json()) as {
      approval: { state: string; outcome: string; decidedBy: string };
    };
    expect(answer.approval).toMatchObject({
      state: 'approved',
      outcome: 'success',
      decidedBy: 'approver@approvals.example',
    });
    expect(await stillThere('carried-out')).toBe(false);
    expect((await row(id)).sealed_secret).toBeNull();
    const deleted = (await entries('delete')).find((entry) => entry.user_group_id === 'carried-out');
    expect(deleted).toMatchObject({ operator_email: harness.admin.email, outcome: 'success' });
    expect(deleted?.detail).toContain('approved by approver@approvals.example');

    // A replayed approval does nothing.
    expect((await decide('third', id, { decision: 'approve' })).status).toBe(409);
    expect((await entries('delete')).filter((entry) => entry.user_group_id === 'carried-out')).toHaveLength(
      1,
    );
  });

  it('is carried out once when two approvers press Approve at once', async () => {
    const token = await group('at-once');
    const id = await requestDelete('at-once', token);
    const answers = await Promise.all([
      decide('approver', id, { decision: 'approve' }),
      decide('third', id, { decision: 'approve' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await entries('delete')).filter((entry) => entry.user_group_id === 'at-once')).toHaveLength(1);
    expect(await stillThere('at-once')).toBe(false);
  });

  it('needs a recent authentication to approve or reject', async () => {
    const token = await group('stale');
    const id = await requestDelete('stale', token);
    const stale = await harness.signIn('third@approvals.example', PASSWORD);
    await harness.ageSession(stale, 60);
    const saved = cookies.third;
    cookies.third = stale;
    const answer = await decide('third', id, { decision: 'approve' });
    cookies.third = saved;
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('step_up_required');
    expect((await row(id)).state).toBe('pending');
  });

  it('is rejected with a reason, which erases its token', async () => {
    const token = await group('rejected');
    const id = await requestDelete('rejected', token);
    expect((await decide('approver', id, { decision: 'reject' })).status).toBe(400);
    const rejected = await decide('approver', id, { decision: 'reject', reason: 'still in use' });
    expect(rejected.status).toBe(200);
    expect((await row(id)).sealed_secret).toBeNull();
    expect((await row(id)).state).toBe('rejected');
    expect((await decide('third', id, { decision: 'approve' })).status).toBe(409);
    expect(await stillThere('rejected')).toBe(true);
    expect((await entries('approval.reject'))[0]?.operator_email).toBe('approver@approvals.example');
  });

  it('is withdrawn by its requester only', async () => {
    const token = await group('withdrawn');
    const id = await requestDelete('withdrawn', token);
    expect((await decide('approver', id, { decision: 'withdraw' })).status).toBe(409);
    expect((await decide('requester', id, { decision: 'withdraw' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ state: 'withdrawn', sealed_secret: null });
    expect((await decide('approver', id, { decision: 'approve' })).status).toBe(409);
    expect(await stillThere('withdrawn')).toBe(true);
  });

  it('expires: then it cannot be approved, and the sweep erases its token', async () => {
    const token = await group('expired');
    const id = await requestDelete('expired', token);
    await db
      .updateTable('approval_request')
      .set({ expires_at: new Date(harness.server.clock.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const read = await readRoute(get('requester', `/api/approvals/${id}`), params({ id }));
    expect(((await read.json()) as { approval: { state: string } }).approval.state).toBe('expired');
    expect((await decide('approver', id, { decision: 'approve' })).status).toBe(409);
    expect(
      await expireOnce({
        db,
        record: (entry) => server.auditLog.record(entry),
        log: () => {},
        clock: server.clock,
      }),
    ).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'expired', sealed_secret: null });
    expect((await entries('approval.expire'))[0]?.detail).toContain('expired');
    expect(await stillThere('expired')).toBe(true);
  });

  it('lists what the reader may decide, with a count, and what they asked for', async () => {
    const token = await group('listed');
    const id = await requestDelete('listed', token);
    const forApprover = (await (await listRoute(get('approver', '/api/approvals'), params({}))).json()) as {
      approvals: { id: string; canDecide: boolean }[];
      waiting: number;
    };
    expect(forApprover.approvals.find((each) => each.id === id)?.canDecide).toBe(true);
    expect(forApprover.waiting).toBeGreaterThanOrEqual(1);
    const count = await countRoute(get('approver', '/api/approvals/waiting'), params({}));
    expect(await count.json()).toEqual({ waiting: forApprover.waiting });
    const forRequester = (await (await listRoute(get('requester', '/api/approvals'), params({}))).json()) as {
      approvals: { id: string; canDecide: boolean; mine: boolean }[];
    };
    expect(forRequester.approvals.find((each) => each.id === id)).toMatchObject({
      canDecide: false,
      mine: true,
    });
    const forSupport = (await (await listRoute(get('support', '/api/approvals'), params({}))).json()) as {
      approvals: unknown[];
      waiting: number;
    };
    expect(forSupport).toEqual({ approvals: [], waiting: 0 });
    expect((await readRoute(get('support', `/api/approvals/${id}`), params({ id }))).status).toBe(404);
  });

  it('makes granting admin wait too, and leaves other role changes alone', async () => {
    const path = `/api/operators/${supportId}`;
    const asked = await operatorRoute(
      send('requester', path, { role: 'admin', approvalReason: 'on call' }, 'PATCH'),
      params({ id: supportId }),
    );
    expect(asked.status).toBe(202);
    const { approval } = (await asked.json()) as { approval: { id: string } };
    expect(
      (await db.selectFrom('user').select('role').where('id', '=', supportId).executeTakeFirstOrThrow()).role,
    ).toBe('support');
    const approved = await operatorRoute(
      send('approver', `${path}?approval=${approval.id}`, { decision: 'approve' }, 'PATCH'),
      params({ id: supportId }),
    );
    expect(approved.status).toBe(200);
    expect(
      (await db.selectFrom('user').select('role').where('id', '=', supportId).executeTakeFirstOrThrow()).role,
    ).toBe('admin');
    const viewer = await operatorRoute(
      send('requester', path, { role: 'viewer' }, 'PATCH'),
      params({ id: supportId }),
    );
    expect(viewer.status).toBe(200);
  });
});
