import { afterAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// "Whose token is this?" against a real service and console database: the token goes in a POST
// body, the answer names groups and times (never a token), and the look-up is on record by
// fingerprint only.
const harness = await startRouteTestConsole('identify', 3995);
const { request, params } = harness;
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const rotate = (await import('@/app/api/user-groups/[environment]/rotate/route')).POST;
const remove = (await import('@/app/api/user-groups/[environment]/delete/route')).POST;
const identify = (await import('@/app/api/tokens/identify/route')).POST;
const { listAuditEvents } = await import('@/lib/audit/store');

const inTesting = params({ environment: 'testing' });

afterAll(() => harness.close());

async function tokenOf(id: string, name?: string): Promise<string> {
  const answer = await getOrCreate(
    request('POST', { user_group_id: id, ...(name ? { name } : {}) }),
    inTesting,
  );
  return (await answer.json()).user_group.token;
}

async function identified(token: string) {
  const answer = await identify(request('POST', { token }), params({}));
  expect(answer.status).toBe(200);
  const text = await answer.text();
  expect(text).not.toContain(token);
  return JSON.parse(text);
}

describe('identifying a pasted token', () => {
  it('names the group whose current token it is, with when and by whom it was issued', async () => {
    const token = await tokenOf('identify-current', 'Identify Current');
    const answer = await identified(`  ${token}\n`);
    expect(answer.fingerprint).toBe(tokenFingerprint(token));
    expect(answer.matches).toEqual([
      {
        environment: 'Testing',
        userGroupId: 'identify-current',
        name: 'Identify Current',
        standing: 'current',
        issued: { at: expect.any(String), by: harness.admin.email, action: 'get-or-create', jobId: null },
        ended: null,
        groupDeleted: false,
      },
    ]);
  });

  it('says a token was replaced, when and by whom, and names the current one’s group', async () => {
    const old = await tokenOf('identify-rotated');
    const rotated = await rotate(request('POST', { current_token: old }), inTesting);
    const fresh = (await rotated.json()).user_group.token as string;
    const [match] = (await identified(old)).matches;
    expect(match).toMatchObject({
      userGroupId: 'identify-rotated',
      standing: 'replaced',
      ended: { by: harness.admin.email, action: 'rotate' },
      groupDeleted: false,
    });
    expect((await identified(fresh)).matches[0]).toMatchObject({ standing: 'current' });
  });

  it('says a token belonged to a group since deleted', async () => {
    const token = await tokenOf('identify-deleted');
    await remove(request('POST', { user_group_id: 'identify-deleted', current_token: token }), inTesting);
    expect((await identified(token)).matches).toEqual([
      expect.objectContaining({
        userGroupId: 'identify-deleted',
        standing: 'deleted',
        ended: expect.objectContaining({ action: 'delete' }),
        groupDeleted: true,
      }),
    ]);
  });

  it('says so when the console never saw a token, and offers a group whose id is the text', async () => {
    expect(await identified('f'.repeat(64))).toMatchObject({ matches: [], groupsWithThatId: [] });
    const idLikeAToken = 'a1b2'.repeat(10);
    await tokenOf(idLikeAToken);
    // The text was an id after all: the answer names that group (and so carries the text).
    const answer = await identify(request('POST', { token: idLikeAToken }), params({}));
    expect((await answer.json()).groupsWithThatId).toEqual([
      { environment: 'Testing', userGroupId: idLikeAToken, name: expect.any(String) },
    ]);
  });

  it('is on record by fingerprint, never by token, with what it found', async () => {
    const token = await tokenOf('identify-audited');
    await identified(token);
    const { events } = await listAuditEvents(harness.server.database, {
      action: 'token.identify',
    });
    const entry = events.find((event) => event.token_fingerprint === tokenFingerprint(token));
    expect(entry).toMatchObject({
      outcome: 'success',
      user_group_id: 'identify-audited',
      detail: 'Testing identify-audited: current',
    });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('refuses a chat message pasted whole as not a token: nothing fingerprinted or put on record (#43)', async () => {
    const sentence = 'hi, the customer says their token abc123def456 stopped working since Monday';
    const refused = await identify(request('POST', { token: sentence }), params({}));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('is not a token');
    const { events } = await listAuditEvents(harness.server.database, { action: 'token.identify' });
    expect(events.map((event) => event.token_fingerprint)).not.toContain(tokenFingerprint(sentence));
    expect(events.map((event) => event.token_fingerprint)).not.toContain(tokenFingerprint(sentence.trim()));
  });

  it('refuses an empty body, and a viewer', async () => {
    const empty = await identify(request('POST', { token: '   ' }), params({}));
    expect(empty.status).toBe(400);
    const { server } = harness;
    await server.auth.api.createUser({
      body: {
        email: 'viewer@identify.example',
        name: 'V',
        password: 'a-long-enough-password',
        role: 'viewer',
      },
    });
    const viewer = await harness.signIn('viewer@identify.example', 'a-long-enough-password');
    const refused = await identify(
      request('POST', { token: 'f'.repeat(64) }, { cookie: viewer }),
      params({}),
    );
    expect(refused.status).toBe(403);
  });

  it('is limited per operator: a person pasting tokens, not a script walking a dump (security round 3)', async () => {
    const { cookie } = await harness.addOperator(
      'walker@identify.example',
      'support',
      'a-long-enough-password',
    );
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++)
      statuses.push(
        (await identify(request('POST', { token: `${attempt}`.padStart(64, 'a') }, { cookie }), params({})))
          .status,
      );
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    const limited = await identify(request('POST', { token: 'b'.repeat(64) }, { cookie }), params({}));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another operator is not limited by that one.
    expect((await identify(request('POST', { token: 'c'.repeat(64) }), params({}))).status).toBe(200);
  });
});

describe('a draft rotation job made from pasted tokens (security round 3)', () => {
  const createRotateJob = async () =>
    (await import('@/app/api/user-groups/[environment]/jobs/rotate/route')).POST;
  const preview = async () => (await import('@/app/api/jobs/[id]/preview/route')).GET;

  it('is a token look-up on record by fingerprint, under the job, and its preview is for those who may rotate', async () => {
    const known = await tokenOf('draft-known', 'Draft Known');
    const unknown = 'd'.repeat(64);
    const created = await (await createRotateJob())(
      request('POST', { source: 'pasted', tokens: `${known}\n${unknown}` }),
      inTesting,
    );
    expect(created.status).toBe(200);
    const job = (await created.json()) as { id: string };
    const { events } = await listAuditEvents(harness.server.database, {
      action: 'token.identify',
    });
    const lookUps = events.filter((event) => event.request_id === job.id);
    expect(lookUps.map((event) => [event.token_fingerprint, event.user_group_id]).sort()).toEqual(
      [
        [tokenFingerprint(known), 'draft-known'],
        [tokenFingerprint(unknown), null],
      ].sort(),
    );
    expect(JSON.stringify(lookUps)).not.toContain(known);

    await harness.addOperator('preview-viewer@identify.example', 'viewer', 'a-long-enough-password');
    const viewer = await harness.signIn('preview-viewer@identify.example', 'a-long-enough-password');
    const refused = await (await preview())(
      request('GET', undefined, { cookie: viewer }),
      params({ id: job.id }),
    );
    expect(refused.status).toBe(403);
    const allowed = await (await preview())(request('GET'), params({ id: job.id }));
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('draft-known');
  });

  it('counts each pasted token against a limit of its own, so drafts are no way around Identify’s', async () => {
    const { randomBytes } = await import('node:crypto');
    const { cookie } = await harness.addOperator(
      'drafter@identify.example',
      'support',
      'a-long-enough-password',
    );
    const tokens = Array.from({ length: 10_000 }, () => randomBytes(32).toString('hex')).join('\n');
    const draft = (body: string) =>
      createRotateJob().then((route) =>
        route(request('POST', { source: 'pasted', tokens: body }, { cookie }), inTesting),
      );
    expect((await draft(tokens)).status).toBe(200);
    const limited = await draft('e'.repeat(64));
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.message).toMatch(/pasted tokens looked up in an hour/);
  });
});
