import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Operator changes, job steering and the one-time tokens download, against a real service and a
// real console database (SQLite, or PostgreSQL in the PostgreSQL pass): each change is on record
// before it happens, and none happens when its entry cannot be written.
const harness = await startRouteTestConsole('record', 3996);
const { origin, params } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const { jobsDb } = await import('@/lib/jobs/schema');
const operatorsRoute = await import('@/app/api/operators/route');
const operatorRoute = await import('@/app/api/operators/[id]/route');
const jobsCreate = (await import('@/app/api/user-groups/[environment]/jobs/get-or-create/route')).POST;
const jobRoute = await import('@/app/api/jobs/[id]/route');
const resultRoute = (await import('@/app/api/jobs/[id]/result/route')).GET;
const tokensRoute = (await import('@/app/api/jobs/[id]/tokens/route')).POST;

const sessions: Record<'admin' | 'support' | 'otherSupport', string> = {
  admin: harness.adminCookie,
  support: '',
  otherSupport: '',
};
type Who = keyof typeof sessions;

const send = (who: Who, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  harness.request(method, body, { cookie: sessions[who], headers });

async function addOperator(email: string, role: 'support' | 'admin' | 'viewer') {
  const { id } = await harness.addOperator(email, role, 'a-long-enough-password');
  return { id, role };
}

const auditWritesFail = <T>(run: () => Promise<T>): Promise<T> =>
  whileInsertsFail(harness.server.database, 'audit_event', run);

async function entries(action: AuditAction) {
  return (await listAuditEvents(harness.server.database, { action })).events;
}

function operatorRow(email: string) {
  return harness.server.database.db
    .selectFrom('user')
    .select(['id', 'role', 'banned'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** A get-or-create job of `count` groups made by `who`, run to its end. */
async function finishedJob(who: Who, prefix: string, count = 3): Promise<string> {
  const csv = ['user_group_id', ...Array.from({ length: count }, (_, index) => `${prefix}-${index}`)].join(
    '\n',
  );
  const created = await jobsCreate(
    send(who, 'POST', { source: `${prefix}.csv`, csv }),
    params({ environment: 'testing' }),
  );
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const started = await jobRoute.POST(send(who, 'POST', { action: 'start' }), params({ id }));
  expect(started.status).toBe(200);
  // The start woke the runner: once it is idle, every job it took has ended.
  await harness.server.jobs.runner.idle();
  const job = await (await jobRoute.GET(send(who, 'GET'), params({ id }))).json();
  expect(job.status).toBe('finished');
  return id;
}

beforeAll(async () => {
  await addOperator('support@record.example', 'support');
  await addOperator('other@record.example', 'support');
  sessions.support = await harness.signIn('support@record.example', 'a-long-enough-password');
  sessions.otherSupport = await harness.signIn('other@record.example', 'a-long-enough-password');
});

afterAll(() => harness.close());

describe('operator changes are on record before they happen', () => {
  it('adds no operator when the audit log cannot be written', async () => {
    const refused = await auditWritesFail(() =>
      operatorsRoute.POST(
        send('admin', 'POST', {
          email: 'ghost@record.example',
          name: 'Ghost',
          role: 'admin',
        }),
        params({}),
      ),
    );
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe('audit_unavailable');
    expect(await operatorRow('ghost@record.example')).toBeUndefined();
  });

  it('neither promotes, disables nor enables when the audit log cannot be written', async () => {
    const target = await addOperator('target@record.example', 'viewer');
    const patch = (change: unknown) =>
      auditWritesFail(() => operatorRoute.PATCH(send('admin', 'PATCH', change), params({ id: target.id })));
    expect((await patch({ role: 'admin' })).status).toBe(503);
    expect((await operatorRow('target@record.example'))?.role).toBe('viewer');
    expect((await patch({ disabled: true })).status).toBe(503);
    expect(Boolean((await operatorRow('target@record.example'))?.banned)).toBe(false);

    // Disabled with the log up, then an enable the log cannot record stays undone.
    const disabled = await operatorRoute.PATCH(
      send('admin', 'PATCH', { disabled: true }),
      params({ id: target.id }),
    );
    expect(disabled.status).toBe(200);
    expect((await patch({ disabled: false })).status).toBe(503);
    expect(Boolean((await operatorRow('target@record.example'))?.banned)).toBe(true);
  });

  it('settles each entry with its outcome, a refusal included', async () => {
    const target = await addOperator('settled@record.example', 'viewer');
    const promoted = await operatorRoute.PATCH(
      send('admin', 'PATCH', { role: 'support' }),
      params({ id: target.id }),
    );
    expect(promoted.status).toBe(200);
    const duplicate = await operatorsRoute.POST(
      send('admin', 'POST', {
        email: 'settled@record.example',
        name: 'Again',
        role: 'viewer',
      }),
      params({}),
    );
    expect(duplicate.status).toBe(400);
    const created = (await entries('operator.create')).filter((event) =>
      event.detail?.startsWith('settled@record.example'),
    );
    expect(created.map((event) => event.outcome)).toEqual(['invalid_request', 'success']);
    const roles = (await entries('operator.set-role')).filter((event) =>
      event.detail?.startsWith('settled@record.example'),
    );
    expect(roles.map((event) => [event.outcome, event.detail])).toEqual([
      ['success', 'settled@record.example: viewer → support'],
    ]);
  });
});

describe('job steering is on record before it happens', () => {
  it('neither cancels, pauses nor resumes a job when the audit log cannot be written', async () => {
    const csv = 'user_group_id\nsteer-0\nsteer-1';
    const created = await jobsCreate(
      send('support', 'POST', { source: 'steer.csv', csv }),
      params({ environment: 'testing' }),
    );
    const { id } = (await created.json()) as { id: string };
    const steer = (action: string) =>
      auditWritesFail(() => jobRoute.POST(send('support', 'POST', { action }), params({ id })));
    const db = jobsDb(harness.server.database.db);
    const status = () =>
      db.selectFrom('bulk_job').select('status').where('id', '=', id).executeTakeFirstOrThrow();

    expect((await steer('cancel')).status).toBe(503);
    expect((await status()).status).toBe('draft');
    expect((await steer('start')).status).toBe(503);
    expect((await status()).status).toBe('draft');
    // Paused by hand (as the runner would), then a resume the log cannot record stays undone.
    await db.updateTable('bulk_job').set({ status: 'paused' }).where('id', '=', id).execute();
    expect((await steer('resume')).status).toBe(503);
    expect((await status()).status).toBe('paused');

    const cancelled = await jobRoute.POST(send('support', 'POST', { action: 'cancel' }), params({ id }));
    expect(cancelled.status).toBe(200);
    const steering = (await entries('bulk.get-or-create')).filter((event) => event.request_id === id);
    expect(steering.map((event) => [event.outcome, event.detail?.split(';')[0]])).toEqual([
      ['success', `Cancelled job “steer.csv” (${id.slice(0, 8)}) before it started: nothing was sent`],
    ]);
  });
});

describe('the tokens of a job are handed out once, by POST, to its owner or an admin', () => {
  it('refuses the GET that used to hand them out, and a cross-site POST, taking nothing', async () => {
    const id = await finishedJob('support', 'cross');
    const get = await resultRoute(
      new Request(`${origin}/api/jobs/${id}/result?tokens=1`, { headers: { cookie: sessions.support } }),
      params({ id }),
    );
    expect(get.status).toBe(400);
    const crossSite = await tokensRoute(
      send('support', 'POST', undefined, { origin: 'https://evil.example' }),
      params({ id }),
    );
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe('cross_site_request');
    // Both left the tokens where they were: the owner still gets all of them.
    const taken = await tokensRoute(send('support', 'POST'), params({ id }));
    expect(taken.status).toBe(200);
    const lines = (await taken.text()).trim().split(/\r?\n/).slice(1);
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => /,"[0-9a-f]{64}"$/.test(line))).toBe(true);
  });

  it('lets another support operator take none and names the owner; an admin may', async () => {
    const id = await finishedJob('support', 'owner');
    const refused = await tokensRoute(send('otherSupport', 'POST'), params({ id }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toContain('support@record.example');
    const byAdmin = await tokensRoute(send('admin', 'POST'), params({ id }));
    expect(byAdmin.status).toBe(200);
    const again = await tokensRoute(send('support', 'POST'), params({ id }));
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain('by admin@record.example');
  });

  it('gives them to exactly one of eight concurrent downloads; the others say when and by whom', async () => {
    const id = await finishedJob('support', 'race', 5);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => tokensRoute(send('support', 'POST'), params({ id }))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect((await answer.json()).error.message).toMatch(/erased on .+ UTC by support@record\.example/);
    }
    const downloads = (await entries('bulk.download')).filter((event) => event.request_id === id);
    expect(downloads.filter((event) => event.outcome === 'success')).toHaveLength(1);
    expect(downloads.filter((event) => event.outcome === 'conflict')).toHaveLength(7);
  });

  it('waits while a console still holds the job (rows it sent may yet answer), then hands them out', async () => {
    const id = await finishedJob('support', 'settling');
    const db = jobsDb(harness.server.database.db);
    const held = new Date(harness.server.clock.now() + 10_000).toISOString();
    await db
      .updateTable('bulk_job')
      .set({ lease_owner: 'another console', lease_expires_at: held })
      .where('id', '=', id)
      .execute();
    const early = await tokensRoute(send('support', 'POST'), params({ id }));
    expect(early.status).toBe(409);
    expect((await early.json()).error.message).toContain('still settling');
    // A lease that ran out (its console died) holds nothing back.
    const past = new Date(harness.server.clock.now() - 1_000).toISOString();
    await db.updateTable('bulk_job').set({ lease_expires_at: past }).where('id', '=', id).execute();
    expect((await tokensRoute(send('support', 'POST'), params({ id }))).status).toBe(200);
  });

  it('hands out nothing when the download cannot be recorded', async () => {
    const id = await finishedJob('support', 'unrecorded');
    const refused = await auditWritesFail(() => tokensRoute(send('support', 'POST'), params({ id })));
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toMatch(/[0-9a-f]{64}/);
    expect((await tokensRoute(send('support', 'POST'), params({ id }))).status).toBe(200);
  });
});

describe('a failure of the console’s setup', () => {
  it('names the variable to fix to an admin only; support reads that an admin must set it up', async () => {
    const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
    const inCustomer = params({ environment: 'customer' });
    const asSupport = await getOrCreate(send('support', 'POST', { user_group_id: 'setup-1' }), inCustomer);
    expect(asSupport.status).toBe(503);
    expect((await asSupport.json()).error).toMatchObject({
      code: 'environment_not_configured',
      message: 'This environment is not set up yet: ask an admin of the console.',
    });
    const asAdmin = await getOrCreate(send('admin', 'POST', { user_group_id: 'setup-1' }), inCustomer);
    expect((await asAdmin.json()).error.message).toContain('USER_GROUP_API_KEY_CUSTOMER');
  });
});
