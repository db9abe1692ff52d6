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
    const { events } = await listAuditEvents(harness.server.database.db, {
      action: 'token.identify',
      page: 1,
    });
    const entry = events.find((event) => event.token_fingerprint === tokenFingerprint(token));
    expect(entry).toMatchObject({
      outcome: 'success',
      user_group_id: 'identify-audited',
      detail: 'Testing identify-audited: current',
    });
    expect(JSON.stringify(events)).not.toContain(token);
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
});
