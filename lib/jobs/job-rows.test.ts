import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { jobsDb } from './schema';
import { tokenPlace } from './token-place';

// A job's rows through their route, on a real console database: paged by keyset through 10,000
// rows, each with its group and what happened, never a token; and every part of a rotation made
// from tokens refused to a viewer (its rows, its progress, its result and its preview).
const harness = await startRouteTestConsole('job-rows', 3931);
const { request, params, server } = harness;
const inTesting = params({ environment: 'testing' });
const draftGetOrCreate = (await import('@/app/api/user-groups/[environment]/jobs/get-or-create/route')).POST;
const draftRotation = (await import('@/app/api/user-groups/[environment]/jobs/rotate/route')).POST;
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const rowsRoute = (await import('@/app/api/jobs/[id]/rows/route')).GET;
const jobRoute = await import('@/app/api/jobs/[id]/route');
const resultRoute = (await import('@/app/api/jobs/[id]/result/route')).GET;
const previewRoute = (await import('@/app/api/jobs/[id]/preview/route')).GET;
const viewer = await harness.addOperator('viewer@job-rows.example', 'viewer', 'a-long-enough-password');

afterAll(() => harness.close());

const rowsOf = (id: string, query = '', cookie?: string) =>
  rowsRoute(
    new Request(`${harness.origin}/api/jobs/${id}/rows${query}`, {
      headers: { cookie: cookie ?? harness.adminCookie },
    }),
    params({ id }),
  );

async function draftOf(body: object, route = draftGetOrCreate): Promise<string> {
  const answer = await route(request('POST', body), inTesting);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { id: string }).id;
}

async function tokenOf(id: string): Promise<string> {
  const answer = await getOrCreate(request('POST', { user_group_id: id, name: `Name of ${id}` }), inTesting);
  return (await answer.json()).user_group.token;
}

describe('a job’s rows, paged', () => {
  it('pages 10,000 rows in the file’s order by keyset, each with its group and what happened, never a token', async () => {
    const lines = ['user_group_id,name'];
    for (let n = 0; n < 10_000; n++) lines.push(n === 5000 ? 'rows-0,Duplicate' : `rows-${n},Group ${n}`);
    const id = await draftOf({ source: 'ten-thousand.csv', csv: lines.join('\n') });
    // As the runner would leave it: every good row done, odd ones created, even ones found, each
    // with its token sealed (which the rows must never carry), the job finished.
    const jobs = jobsDb(server.database.db);
    const secret = 'a'.repeat(63);
    await jobs
      .updateTable('bulk_job_row')
      .set({ status: 'done', new_user_group: sql<number>`row_number % 2` })
      .where('job_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    const sealed = server.jobs.vault.seal(`${secret}1`, tokenPlace(id, 1, 'result'));
    await jobs
      .updateTable('bulk_job_row')
      .set({ result_token: sealed, result_fingerprint: 'fp-1' })
      .where('job_id', '=', id)
      .where('row_number', '=', 1)
      .execute();
    await jobs.updateTable('bulk_job').set({ status: 'finished' }).where('id', '=', id).execute();

    const seen: { line: number; userGroupId: string | null; outcome: string; note: string | null }[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const answer = await rowsOf(id, `?limit=500${after ? `&after=${after}` : ''}`);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).not.toContain(secret);
      const page = JSON.parse(text) as { rows: typeof seen; total: number; next: string | null };
      expect(page.total).toBe(10_000);
      seen.push(...page.rows);
      after = page.next;
      pages++;
    } while (after !== null && pages < 30);
    expect(pages).toBe(20);
    expect(seen).toHaveLength(10_000);
    // Every line once, in the file's order (line 1 is the header).
    expect(seen.map((row) => row.line)).toEqual(Array.from({ length: 10_000 }, (_, n) => n + 2));
    expect(seen[0]).toEqual({
      line: 2,
      userGroupId: 'rows-0',
      name: 'Group 0',
      outcome: 'created',
      note: null,
    });
    expect(seen[1]).toMatchObject({ line: 3, userGroupId: 'rows-1', outcome: 'found' });
    expect(seen[5000]).toMatchObject({ line: 5002, userGroupId: 'rows-0', outcome: 'refused' });
    expect(seen[5000]?.note).toContain('line 2');
    const count = (outcome: string) => seen.filter((row) => row.outcome === outcome).length;
    expect([count('created'), count('found'), count('refused')]).toEqual([5000, 4999, 1]);

    // One outcome, paged on its own; and a page after a position holds exactly what follows it.
    const created = await (await rowsOf(id, '?show=created&limit=3')).json();
    expect(created.total).toBe(5000);
    expect(created.rows.map((row: { line: number }) => row.line)).toEqual([2, 4, 6]);
    const rest = await (await rowsOf(id, `?show=refused&after=${created.next}`)).json();
    expect(rest).toEqual({ rows: [expect.objectContaining({ line: 5002 })], total: 1, next: null });
    const rotated = await (await rowsOf(id, '?show=rotated')).json();
    expect(rotated).toEqual({ rows: [], total: 0, next: null });
  });

  it('refuses a query it cannot answer, in the documented shape', async () => {
    const id = await draftOf({ source: 'small.csv', csv: 'user_group_id\nrows-small' });
    for (const query of ['?limit=0', '?limit=501', '?after=abc', '?show=everything']) {
      const answer = await rowsOf(id, query);
      expect(answer.status, query).toBe(400);
      const { error } = await answer.json();
      expect(error.code).toBe('invalid_request');
      expect(Object.keys(error.fields)).toHaveLength(1);
    }
    const draft = await (await rowsOf(id)).json();
    expect(draft).toEqual({
      rows: [{ line: 2, userGroupId: 'rows-small', name: null, outcome: 'ready', note: null }],
      total: 1,
      next: null,
    });
    expect((await rowsOf('no-such-job')).status).toBe(404);
  });
});

describe('a rotation made from tokens, and a viewer', () => {
  it('refuses every part of it to a viewer (rows, progress, result, preview) and shows it to those who may rotate', async () => {
    const token = await tokenOf('rows-token-made');
    const id = await draftOf({ source: 'pasted tokens', tokens: token }, draftRotation);
    const asViewer = (route: typeof resultRoute) =>
      route(request('GET', undefined, { cookie: viewer.cookie }), params({ id }));
    for (const [part, answer] of [
      ['rows', await rowsOf(id, '', viewer.cookie)],
      ['progress', await asViewer(jobRoute.GET)],
      ['result', await asViewer(resultRoute)],
      ['preview', await asViewer(previewRoute)],
    ] as const) {
      expect(answer.status, part).toBe(403);
      const { error } = await answer.json();
      expect(error, part).toEqual({ code: 'forbidden', message: expect.any(String) });
      expect(error.message, part).toMatch(/may (not )?rotate tokens/);
      expect(JSON.stringify(error)).not.toContain('rows-token-made');
    }
    // Those who may rotate read it, with no token in any answer.
    const rows = await rowsOf(id);
    expect(rows.status).toBe(200);
    const text = await rows.text();
    expect(text).toContain('rows-token-made');
    expect(text).not.toContain(token);
    const progress = await jobRoute.GET(request('GET'), params({ id }));
    expect(await progress.text()).not.toContain(token);
    const result = await resultRoute(request('GET'), params({ id }));
    expect(result.status).toBe(200);
    expect(await result.text()).not.toContain(token);
  });

  it('lets a viewer read a rotation of groups chosen in the directory, and a get-or-create', async () => {
    await tokenOf('rows-chosen');
    const chosen = await draftOf(
      { source: '1 group chosen in the directory', userGroupIds: ['rows-chosen'] },
      draftRotation,
    );
    const file = await draftOf({ source: 'viewer.csv', csv: 'user_group_id\nrows-viewer' });
    for (const id of [chosen, file]) {
      expect((await rowsOf(id, '', viewer.cookie)).status).toBe(200);
      expect(
        (await jobRoute.GET(request('GET', undefined, { cookie: viewer.cookie }), params({ id }))).status,
      ).toBe(200);
    }
    const view = await (await jobRoute.GET(request('GET'), params({ id: chosen }))).json();
    expect(view.input).toBe('directory');
  });

  it('says what to fix in the words of what was given: pasted tokens are not a file', async () => {
    const id = await draftOf({ source: 'pasted tokens', tokens: 'b'.repeat(64) }, draftRotation);
    const view = await (await jobRoute.GET(request('GET'), params({ id }))).json();
    expect(view).toMatchObject({ input: 'pasted-tokens', counts: { total: 0, invalid: 1 } });
    const start = await jobRoute.POST(request('POST', { action: 'start' }), params({ id }));
    expect(start.status).toBe(409);
    expect((await start.json()).error.message).toBe(
      'The job has no good row to run: fix the tokens and check them again.',
    );
  });
});
