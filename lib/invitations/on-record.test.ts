import { afterAll, describe, expect, it } from 'vitest';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// README: "Making, using and voiding (resent or revoked) a link are on record before they happen."
// Each of them, while the audit log refuses writes, is answered 503 audit_unavailable and leaves the
// operators and their links as they were; once the log works again, the same link still works.
const harness = await startRouteTestConsole('invitations-record', 3973);
const { params, server } = harness;
const operatorsRoute = await import('@/app/api/operators/route');
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;
const revokeRoute = (await import('@/app/api/operators/[id]/invitation/revoke/route')).POST;
const acceptRoute = (await import('@/app/api/invitation/accept/route')).POST;

afterAll(() => harness.close());

const PASSWORD = 'my-own-long-password';
const secretOf = (link: string) => new URL(link).hash.slice(1);
const accept = (secret: string) =>
  acceptRoute(
    harness.request('POST', { secret, password: PASSWORD, confirmPassword: PASSWORD }, { cookie: '' }),
  );
const auditWritesFail = <T>(run: () => Promise<T>): Promise<T> =>
  whileInsertsFail(server.database, 'audit_event', run);

async function refusedForTheLog(response: Response) {
  expect(response.status).toBe(503);
  expect((await response.json()).error.code).toBe('audit_unavailable');
}

const operatorRow = (email: string) =>
  server.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();

const invitationsOf = (operatorId: string) =>
  server.database.db
    .selectFrom('operator_invitation')
    .selectAll()
    .where('user_id', '=', operatorId)
    .orderBy('created_at')
    .execute();

async function invite(email: string) {
  const response = await operatorsRoute.POST(
    harness.request('POST', { email, name: email, role: 'support' }),
    params({}),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { operator: { id: string }; invitation: { link: string } };
}

describe('invitations are on record before they happen', () => {
  it('makes no operator and no link when the audit log cannot be written', async () => {
    const response = await auditWritesFail(() =>
      operatorsRoute.POST(
        harness.request('POST', { email: 'ghost@record.example', name: 'Ghost', role: 'admin' }),
        params({}),
      ),
    );
    await refusedForTheLog(response);
    expect(await operatorRow('ghost@record.example')).toBeUndefined();
  });

  it('neither sends a new link nor revokes one when the audit log cannot be written', async () => {
    const { operator, invitation } = await invite('kept@record.example');
    const before = await invitationsOf(operator.id);

    await refusedForTheLog(
      await auditWritesFail(() => resendRoute(harness.request('POST'), params({ id: operator.id }))),
    );
    await refusedForTheLog(
      await auditWritesFail(() => revokeRoute(harness.request('POST'), params({ id: operator.id }))),
    );
    expect(await invitationsOf(operator.id)).toEqual(before);
    expect(await operatorRow('kept@record.example')).toEqual({ id: operator.id });
    // The first link still lets them in.
    expect((await accept(secretOf(invitation.link))).status).toBe(200);
  });

  it('sets no password and uses no link when the audit log cannot be written', async () => {
    const { operator, invitation } = await invite('later@record.example');
    const secret = secretOf(invitation.link);
    const before = await invitationsOf(operator.id);

    await refusedForTheLog(await auditWritesFail(() => accept(secret)));
    expect(await invitationsOf(operator.id)).toEqual(before);
    const accounts = await server.database.db
      .selectFrom('account')
      .select('id')
      .where('userId', '=', operator.id)
      .execute();
    expect(accounts).toEqual([]);
    // Once the log works again, the same link works.
    expect((await accept(secret)).status).toBe(200);
  });
});
