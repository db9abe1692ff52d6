/**
 * What an attacker meets at /api/scim/v2, over real HTTP: no token, a wrong one, one of the right
 * length, the right one in the query string: 401 and nothing changes, nothing on record. And what
 * the console refuses of the directory itself: a change it cannot record (503), a taken userName,
 * an operator the console added (409), bodies and filters it does not read (400).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { SCIM_TOKEN, startScimConsole } from './test-support';

const scimConsole = await startScimConsole('scim-attacks', 3962);
const { scim, db, harness } = scimConsole;
afterAll(() => scimConsole.close());

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const operators = async () => (await db.selectFrom('user').select('id').execute()).length;
const newUser = (userName: string) => ({ schemas: [USER], userName, active: true });

describe('an attacker', () => {
  const attempts: Array<[string, string, Record<string, string>]> = [
    ['no token', '/Users', {}],
    ['a wrong token', '/Users', { authorization: 'Bearer not-the-token' }],
    ['a token of the right length', '/Users', { authorization: `Bearer ${'x'.repeat(SCIM_TOKEN.length)}` }],
    [
      'the token with one character changed',
      '/Users',
      { authorization: `Bearer ${SCIM_TOKEN.slice(0, -1)}0` },
    ],
    ['the token in the query string', `/Users?access_token=${SCIM_TOKEN}`, {}],
    ['the token as ?token=', `/Users?token=${SCIM_TOKEN}`, {}],
    ['the token as Basic credentials', '/Users', { authorization: `Basic ${btoa(`scim:${SCIM_TOKEN}`)}` }],
    ['the token without its scheme', '/Users', { authorization: SCIM_TOKEN }],
  ];

  it.each(attempts)('with %s gets 401 and changes nothing', async (_what, path, headers) => {
    const before = { operators: await operators(), entries: (await scimConsole.entries()).length };
    for (const method of ['POST', 'GET'] as const) {
      const answer = await scim(
        method,
        path,
        method === 'POST' ? newUser('intruder@example.com') : undefined,
        headers,
      );
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="scim"');
      expect(answer.body).toMatchObject({ schemas: [ERROR], status: '401' });
      expect(JSON.stringify(answer.body)).not.toContain(SCIM_TOKEN);
    }
    expect(await operators()).toBe(before.operators);
    expect((await scimConsole.entries()).length).toBe(before.entries);
  });
});

describe('the directory', () => {
  it('changes nothing it cannot put on record first: 503, no operator, still active', async () => {
    const before = await operators();
    const refused = await whileInsertsFail(harness.server.database, 'audit_event', () =>
      scim('POST', '/Users', newUser('unrecorded@example.com')),
    );
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ schemas: [ERROR], status: '503' });
    expect(await operators()).toBe(before);

    const created = await scim('POST', '/Users', newUser('recorded@example.com'));
    const off = await whileInsertsFail(harness.server.database, 'audit_event', () =>
      scim('PATCH', `/Users/${created.body.id}`, {
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
    );
    expect(off.status).toBe(503);
    expect((await scim('GET', `/Users/${created.body.id}`)).body.active).toBe(true);
  });

  it('is told 409 uniqueness for a userName it has provisioned, on record as refused', async () => {
    await scim('POST', '/Users', newUser('twice@example.com'));
    const again = await scim('POST', '/Users', newUser('TWICE@example.com'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
    expect((await scimConsole.entries()).at(-1)).toMatchObject({
      action: 'scim.user.create',
      outcome: 'uniqueness',
    });
  });

  it('cannot take over an operator the console added (the first admin): 409', async () => {
    const taken = await scim('POST', '/Users', newUser(harness.admin.email));
    expect(taken.status).toBe(409);
    const role = await db
      .selectFrom('user')
      .select('role')
      .where('email', '=', harness.admin.email)
      .executeTakeFirst();
    expect(role?.role).toBe('admin');
    // Nor find it to change it: SCIM sees only the operators it provisioned.
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${harness.admin.email}"`)}`,
    );
    expect(found.body.totalResults).toBe(0);
  });

  it.each([
    ['a body that is not JSON', 'POST', '/Users', '{', 'invalidSyntax'],
    ['a User without userName', 'POST', '/Users', JSON.stringify({ schemas: [USER] }), 'invalidValue'],
    [
      'a userName that is no email, without emails',
      'POST',
      '/Users',
      JSON.stringify(newUser('jdoe')),
      'invalidValue',
    ],
  ])('answers %s with 400 %s', async (_what, method, path, body, scimType) => {
    const { request } = await import('undici');
    const answer = await request(`${harness.origin}/api/scim/v2${path}`, {
      method: method as 'POST',
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
      body,
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('application/scim+json');
    expect(await answer.body.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType });
  });

  it.each(['/Users', '/Groups'])(
    'answers a %s body nested 100,000 levels deep with 400 invalidSyntax and stores nothing',
    async (path) => {
      const { request } = await import('undici');
      const before = { operators: await operators(), entries: (await scimConsole.entries()).length };
      // Written as text: JSON.stringify itself overflows the stack at this depth.
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const answer = await request(`${harness.origin}/api/scim/v2${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
        body: `{"schemas":["${USER}"],"userName":"deep@example.com","active":true,"deep":${deep}}`,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toBe('application/scim+json');
      const body = await answer.body.json();
      expect(body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidSyntax' });
      expect((body as { detail: string }).detail).toMatch(/64 levels/);
      expect(await operators()).toBe(before.operators);
      expect((await scimConsole.entries()).length).toBe(before.entries);
    },
  );

  it.each(['/Users', '/Groups'])(
    'pages %s past any number without failing: 200 and no resources',
    async (path) => {
      for (const query of [
        'startIndex=1e20&count=1e20',
        'startIndex=-1e20&count=-5',
        'startIndex=99999999999999999999',
      ]) {
        const answer = await scim('GET', `${path}?${query}`);
        expect(answer.status).toBe(200);
        expect(answer.body.startIndex).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      }
      const far = await scim('GET', `${path}?startIndex=1e20`);
      expect(far.body).toMatchObject({ startIndex: Number.MAX_SAFE_INTEGER, itemsPerPage: 0, Resources: [] });
    },
  );

  it('answers a filter it does not read with 400 invalidFilter', async () => {
    const answer = await scim('GET', `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`);
    expect(answer.status).toBe(400);
    expect(answer.body.scimType).toBe('invalidFilter');
  });
});

describe('refused requests', () => {
  it('are limited per client address: 429 with Retry-After past 20 a minute', async () => {
    let last = 0;
    let retryAfter: unknown;
    for (let attempt = 0; attempt < 25 && last !== 429; attempt++) {
      const answer = await scim('GET', '/Users', undefined, { authorization: 'Bearer guess' });
      last = answer.status;
      retryAfter = answer.headers['retry-after'];
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
