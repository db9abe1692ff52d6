import { afterAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '@/lib/console-api/routes';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Security round 3, High: a session too old for a Customer token could still make an admin, promote
// support to admin or reset another's second factor, and the new admin's fresh session read Customer
// tokens at once. Every change of access now needs a recent authentication, in every environment.
const harness = await startRouteTestConsole('privilege', 3981, { CONSOLE_STEP_UP_MINUTES: '15' });
const { params, server } = harness;
const createOperatorRoute = (await import('@/app/api/operators/route')).POST;
const updateOperatorRoute = (await import('@/app/api/operators/[id]/route')).PATCH;
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;
const revokeRoute = (await import('@/app/api/operators/[id]/invitation/revoke/route')).POST;
const resetRoute = (await import('@/app/api/operators/[id]/two-factor/reset/route')).POST;
const endSessionsRoute = (await import('@/app/api/operators/[id]/sessions/end/route')).POST;
const stepUpRoute = (await import('@/app/api/step-up/route')).POST;
const { findOperator } = await import('@/lib/operators/store');

afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';

const { ageSession } = harness;

async function refusedForStaleSession(response: Response) {
  expect(response.status).toBe(403);
  const { error } = await response.json();
  expect(error.code).toBe('step_up_required');
  expect(error.message).toMatch(/changing operators/);
}

describe('changes of access need a recent authentication, in every environment', () => {
  it('refuses each of them to a stale admin session, changing nothing, and lets them through once confirmed', async () => {
    const support = await harness.addOperator('support@privilege.example', 'support', PASSWORD);
    const invited = await createOperatorRoute(
      harness.request('POST', { email: 'pending@privilege.example', name: 'Pending', role: 'viewer' }),
      params({}),
    );
    expect(invited.status).toBe(201);
    const pending = (await invited.json()).operator as { id: string };
    const cookie = await harness.signIn(harness.admin.email, harness.admin.password);
    await ageSession(cookie, 16);
    const as = { cookie };

    await refusedForStaleSession(
      await createOperatorRoute(
        harness.request('POST', { email: 'mallory@privilege.example', name: 'M', role: 'admin' }, as),
        params({}),
      ),
    );
    await refusedForStaleSession(
      await updateOperatorRoute(harness.request('PATCH', { role: 'admin' }, as), params({ id: support.id })),
    );
    await refusedForStaleSession(
      await updateOperatorRoute(harness.request('PATCH', { disabled: true }, as), params({ id: support.id })),
    );
    await refusedForStaleSession(
      await resetRoute(harness.request('POST', undefined, as), params({ id: support.id })),
    );
    await refusedForStaleSession(
      await endSessionsRoute(harness.request('POST', undefined, as), params({ id: support.id })),
    );
    await refusedForStaleSession(
      await resendRoute(harness.request('POST', undefined, as), params({ id: pending.id })),
    );
    await refusedForStaleSession(
      await revokeRoute(harness.request('POST', undefined, as), params({ id: pending.id })),
    );

    // Nothing changed: no new operator, the support operator still support and enabled, the
    // invitation still open.
    const operators = await server.database.db.selectFrom('user').select('email').execute();
    expect(operators.map((row) => row.email)).not.toContain('mallory@privilege.example');
    const unchanged = await findOperator(server, support.id);
    expect(unchanged).toMatchObject({ role: 'support', disabled: false });
    expect((await findOperator(server, pending.id))?.invitationExpiresAt).not.toBeNull();

    const confirmed = await stepUpRoute(
      harness.request('POST', { password: harness.admin.password }, as),
      params({}),
    );
    expect(confirmed.status).toBe(200);
    const promoted = await updateOperatorRoute(
      harness.request('PATCH', { role: 'admin' }, as),
      params({ id: support.id }),
    );
    expect(promoted.status).toBe(200);
    expect((await findOperator(server, support.id))?.role).toBe('admin');
  });

  it('is declared on every definition that changes operators, so none can forget it', () => {
    const changesOfAccess = Object.values(consoleRoutes).filter(
      (route) => route.permission === 'operators:manage' && route.method !== 'GET',
    );
    expect(changesOfAccess.length).toBeGreaterThanOrEqual(6);
    for (const route of changesOfAccess) expect([route.name, route.stepUp]).toEqual([route.name, 'always']);
  });
});
