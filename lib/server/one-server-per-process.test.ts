import { afterAll, describe, expect, it, vi } from 'vitest';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Next loads the server's modules once per bundle layer (instrumentation, route handlers, pages):
// three copies in one process. Here the harness's copy builds the server, then a fresh copy of the
// modules (vi.resetModules) stands in for another layer's route handlers.
const harness = await startRouteTestConsole('one-server', 3976);
const { server, request, params } = harness;
const firstLayer = await import('@/lib/server');
vi.resetModules();
const otherLayer = await import('@/lib/server');
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;

afterAll(() => harness.close());

const inTesting = params({ environment: 'testing' });

describe('one console server per process, whichever copy of its modules asks', () => {
  it('hands every copy the server the first one built: one database, one audit log, one of each loop', async () => {
    expect(otherLayer.consoleServer).not.toBe(firstLayer.consoleServer);
    const theirs = await otherLayer.consoleServer();
    expect(theirs).toBe(server);
    expect(theirs.database).toBe(server.database);
    expect(theirs.auditLog).toBe(server.auditLog);
  });

  it("answers another copy's route with the documented error the server throws, not an internal one", async () => {
    // The audit log (the first copy's code) refuses; the route (the other copy's frame) must read
    // its ConsoleError as one, or it answers 500 `internal` and the person is not told why.
    const refused = await whileInsertsFail(server.database, 'audit_event', () =>
      getOrCreate(request('POST', { user_group_id: 'layers-1' }), inTesting),
    );
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe('audit_unavailable');
    // The Customer environment has no key: the server's error, with its admin-only setup words.
    const unconfigured = await getOrCreate(
      request('POST', { user_group_id: 'layers-1' }),
      params({ environment: 'customer' }),
    );
    expect(unconfigured.status).toBe(503);
    const { error } = await unconfigured.json();
    expect(error.code).toBe('environment_not_configured');
    expect(error.message).toMatch(/USER_GROUP_API_KEY_CUSTOMER/);
  });

  it("writes another copy's change through the one server, on record in the one database", async () => {
    const created = await getOrCreate(request('POST', { user_group_id: 'layers-2' }), inTesting);
    expect(created.status).toBe(200);
    const entries = await server.database.db
      .selectFrom('audit_event')
      .select(['action', 'outcome'])
      .where('user_group_id', '=', 'layers-2')
      .execute();
    expect(entries).toEqual([{ action: 'get-or-create', outcome: 'success' }]);
  });
});
