import { afterAll, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Without SCIM_TOKEN, SCIM is off: every path answers 404, whatever the request carries.
const harness = await startRouteTestConsole('scim-off', 3963);
afterAll(() => harness.close());

it('answers 404 on every SCIM path while SCIM_TOKEN is unset', async () => {
  const users = await import('@/app/api/scim/v2/Users/route');
  const user = await import('@/app/api/scim/v2/Users/[id]/route');
  const headers = { authorization: `Bearer ${'a'.repeat(40)}`, 'content-type': 'application/scim+json' };
  const request = (method: string, body?: unknown) =>
    new Request(`${harness.origin}/api/scim/v2/Users`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  for (const answer of [
    await users.GET(request('GET'), harness.params({})),
    await users.POST(request('POST', { userName: 'someone@example.com' }), harness.params({})),
    await user.PATCH(request('PATCH', { Operations: [] }), harness.params({ id: 'x' })),
  ]) {
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/scim+json');
  }
  const users_ = await harness.server.database.db.selectFrom('user').select('email').execute();
  expect(users_.map((row) => row.email)).toEqual([harness.admin.email]);
});
