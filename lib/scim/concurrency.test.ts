/**
 * Okta and Entra ID push groups in parallel: PATCHes of one group, or of one operator in two groups,
 * arrive at the same moment. Over real HTTP, on SQLite and on PostgreSQL (where they truly run at
 * once), none is lost: the members and every role end as the directory said.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startScimConsole } from './test-support';

const scimConsole = await startScimConsole('scim-race', 3965);
const { scim, db } = scimConsole;
afterAll(() => scimConsole.close());

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const newUser = async (userName: string): Promise<string> => {
  const created = await scim('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
  });
  expect(created.status).toBe(201);
  return created.body.id;
};
const newGroup = async (displayName: string, members: string[]): Promise<string> => {
  const created = await scim('POST', '/Groups', {
    schemas: [GROUP],
    displayName,
    members: members.map((value) => ({ value })),
  });
  expect(created.status).toBe(201);
  return created.body.id;
};
const add = (group: string, id: string) =>
  scim('PATCH', `/Groups/${group}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
  });
const remove = (group: string, id: string) =>
  scim('PATCH', `/Groups/${group}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
  });
const membersOf = async (group: string) =>
  ((await scim('GET', `/Groups/${group}`)).body.members as { value: string }[])
    .map((member) => member.value)
    .sort();
const roleOf = async (id: string) =>
  (await db.selectFrom('user').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;

describe('group PATCHes at the same moment', () => {
  it('"remove X from Console Admins" beside "add Y": X is no admin, Y is, five rounds of five', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await newUser(`x${round}@race.example`);
      const y = await newUser(`y${round}@race.example`);
      const admins = await newGroup(`Console Admins ${round}`, [x]);
      // The mapping names "Console Admins": rename this round's group to it, the last one's away.
      await scim('PATCH', `/Groups/${admins}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Console Admins' }],
      });
      expect(await roleOf(x)).toBe('admin');
      const answers = await Promise.all([remove(admins, x), add(admins, y)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(await membersOf(admins)).toEqual([y]);
      expect(await roleOf(x)).toBe('viewer');
      expect(await roleOf(y)).toBe('admin');
      await scim('DELETE', `/Groups/${admins}`);
      expect(await roleOf(y)).toBe('viewer');
    }
  });

  it('ten single adds at once: all ten are members and admins', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, n) => newUser(`ten${n}@race.example`)));
    const admins = await newGroup('Console Admins', []);
    const answers = await Promise.all(ids.map((id) => add(admins, id)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await membersOf(admins)).toEqual([...ids].sort());
    for (const id of ids) expect(await roleOf(id)).toBe('admin');
    await scim('DELETE', `/Groups/${admins}`);
    for (const id of ids) expect(await roleOf(id)).toBe('viewer');
  });

  it('X leaving Console Admins while joining Console Support: support, never admin left behind', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await newUser(`moving${round}@race.example`);
      const admins = await newGroup('Console Admins', [x]);
      const support = await newGroup('Console Support', []);
      expect(await roleOf(x)).toBe('admin');
      await Promise.all([remove(admins, x), add(support, x)]);
      expect(await roleOf(x)).toBe('support');
      await scim('DELETE', `/Groups/${admins}`);
      await scim('DELETE', `/Groups/${support}`);
    }
  });

  it('a PATCH naming an operator the console added changes nothing of theirs', async () => {
    const admin = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', scimConsole.harness.admin.email)
      .executeTakeFirstOrThrow();
    const group = await newGroup('Somebody', []);
    expect((await remove(group, admin.id)).status).toBe(200);
    expect(await roleOf(admin.id)).toBe('admin');
    expect((await add(group, admin.id)).status).toBe(400);
  });
});
