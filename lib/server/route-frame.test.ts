import { afterAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '@/lib/console-api/routes';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// The route frame is the one place that guards and audits (lib/server/route.ts): these try the
// ways a route used to slip past it, when a job's routes checked step-up and wrote entries by hand.
const harness = await startRouteTestConsole(
  'frame',
  3984,
  { CONSOLE_STEP_UP_MINUTES: '15' },
  { withCustomer: true },
);
const { params, server } = harness;
const { consoleRoute } = await import('./route');
const draftJob = (await import('@/app/api/user-groups/[environment]/jobs/get-or-create/route')).POST;
const steerJob = (await import('@/app/api/jobs/[id]/route')).POST;
const takeTokens = (await import('@/app/api/jobs/[id]/tokens/route')).POST;

afterAll(() => harness.close());

const entriesOf = (requestId: string) =>
  server.database.db
    .selectFrom('audit_event')
    .select(['action', 'outcome', 'environment', 'detail'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();

describe('the route frame', () => {
  it('refuses to build a route that writes an audit action its definition does not declare', () => {
    const undeclared = { ...consoleRoutes.rotate, audit: { action: 'delete' as const } };
    expect(() => consoleRoute(undeclared, async () => ({}))).toThrow(/does not declare/);
    expect(() =>
      consoleRoute({ ...undeclared, audit: { action: 'rotate' } }, async () => ({})),
    ).not.toThrow();
  });

  it('refuses to build a route that asks for a production step-up and cannot say where it is', () => {
    const unplaced = { ...consoleRoutes.readJob, stepUp: 'in-production' as const };
    expect(() => consoleRoute(unplaced, async () => ({}))).toThrow(/environmentOf/);
    // Told where (the job's environment), it is built.
    expect(() =>
      consoleRoute(
        { ...unplaced, environmentOf: () => 'Customer' as const, load: async () => ({}) },
        async () => ({}),
      ),
    ).not.toThrow();
  });

  it('asks a stale session to step up before a Customer job starts or hands out tokens, on record under the job', async () => {
    const cookie = await harness.signIn(harness.admin.email, harness.admin.password);
    const as = { cookie };
    const drafted = await draftJob(
      harness.request('POST', { csv: 'user_group_id\nframe-1\n', source: 'frame.csv' }, as),
      params({ environment: 'customer' }),
    );
    expect(drafted.status).toBe(200);
    const job = (await drafted.json()) as { id: string };
    await harness.ageSession(cookie, 16);

    const start = await steerJob(harness.request('POST', { action: 'start' }, as), params({ id: job.id }));
    expect(start.status).toBe(403);
    expect((await start.json()).error.code).toBe('step_up_required');
    const tokens = await takeTokens(harness.request('POST', undefined, as), params({ id: job.id }));
    expect((await tokens.json()).error.code).toBe('step_up_required');
    // Pausing never waits for a step-up: the draft is refused for what it is, not for the session.
    const pause = await steerJob(harness.request('POST', { action: 'pause' }, as), params({ id: job.id }));
    expect(pause.status).toBe(409);

    const entries = await entriesOf(job.id);
    expect(entries.map((entry) => [entry.action, entry.outcome, entry.environment])).toEqual([
      ['bulk.get-or-create', 'step_up_required', 'Customer'],
      ['bulk.download', 'step_up_required', 'Customer'],
      ['bulk.get-or-create', 'conflict', 'Customer'],
    ]);
    expect(entries[0]?.detail).toMatch(
      /^Run job “frame\.csv” \([0-9a-f]{8}\): 1 row \(0 refused by the preview\); request /,
    );
    expect(entries[2]?.detail).toMatch(/^Pause job “frame\.csv” \([0-9a-f]{8}\); request /);
    const { jobProgress } = await import('@/lib/jobs/store');
    expect((await jobProgress(server.database.db, job.id))?.job.status).toBe('draft');
  });
});
