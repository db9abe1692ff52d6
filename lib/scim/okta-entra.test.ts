/**
 * SCIM 2.0 over real HTTP against a real console database (SQLite, and PostgreSQL in the PostgreSQL
 * pass): the request sequences Okta and Entra ID document for provisioning, each change on record
 * under "SCIM", deactivation ending every session at once, groups giving roles.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { setFirstPassword } from '@/lib/operators/store';
import { operatorFromHeaders } from '@/lib/server';
import { startScimConsole } from './test-support';

const scimConsole = await startScimConsole('scim', 3961);
const { scim, db, harness } = scimConsole;
afterAll(() => scimConsole.close());

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

const bannedOf = async (id: string) =>
  Boolean(
    (await db.selectFrom('user').select('banned').where('id', '=', id).executeTakeFirstOrThrow()).banned,
  );
const sessionsOf = async (id: string) =>
  (await db.selectFrom('session').select('id').where('userId', '=', id).execute()).length;

/** Gives the SCIM operator a password and signs them in: answers their session's cookie. */
async function signedIn(id: string, email: string): Promise<string> {
  await setFirstPassword(harness.server, id, 'scim-operator-password');
  return harness.signIn(email, 'scim-operator-password');
}

describe('Okta’s sequence', () => {
  const userName = 'okta.user@example.com';
  let id = '';

  it('looks the user up first: 200 and an empty ListResponse', async () => {
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`,
    );
    expect(found.status).toBe(200);
    expect(found.headers['content-type']).toBe('application/scim+json');
    expect(found.body).toEqual({
      schemas: [LIST],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
  });

  it('creates the user: 201, an operator with the default role, on record', async () => {
    const created = await scim('POST', '/Users', {
      schemas: [USER],
      userName,
      name: { givenName: 'Okta', familyName: 'User' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Okta User',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'ignored-by-the-console',
      active: true,
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.headers.location).toBe(`${harness.origin}/api/scim/v2/Users/${id}`);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName,
      externalId: '00u1abcd',
      displayName: 'Okta User',
      emails: [{ value: userName, primary: true }],
      active: true,
      meta: { resourceType: 'User' },
    });
    const row = await db
      .selectFrom('user')
      .select(['email', 'role'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: userName, role: 'viewer' });
    expect(await scimConsole.entries()).toContainEqual({
      action: 'scim.user.create',
      operator_email: 'SCIM (identity provider)',
      outcome: 'success',
      detail: userName,
    });
  });

  it('finds it by the same filter, and reads it by id', async () => {
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "OKTA.User@example.com"`)}`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const read = await scim('GET', `/Users/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.userName).toBe(userName);
  });

  it('replaces it with PUT', async () => {
    const replaced = await scim('PUT', `/Users/${id}`, {
      schemas: [USER],
      id,
      userName,
      name: { givenName: 'Okta', familyName: 'Renamed' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      active: true,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.displayName).toBe('Okta Renamed');
  });

  it('deactivates with PATCH active:false: disabled, every session ended at once, on record', async () => {
    const cookie = await signedIn(id, userName);
    expect(await operatorFromHeaders(harness.server, new Headers({ cookie }))).not.toBeNull();
    expect(await sessionsOf(id)).toBe(1);

    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);
    expect(await bannedOf(id)).toBe(true);
    expect(await sessionsOf(id)).toBe(0);
    expect(await operatorFromHeaders(harness.server, new Headers({ cookie }))).toBeNull();
    await expect(harness.signIn(userName, 'scim-operator-password')).rejects.toThrow();
    expect((await scimConsole.entries()).at(-1)).toEqual({
      action: 'scim.user.deactivate',
      operator_email: 'SCIM (identity provider)',
      outcome: 'success',
      detail: `${userName}: disabled, every session ended`,
    });
  });

  it('re-activates with PATCH active:true: they sign in again', async () => {
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(patched.body.active).toBe(true);
    expect(await bannedOf(id)).toBe(false);
    const cookie = await harness.signIn(userName, 'scim-operator-password');
    expect(await operatorFromHeaders(harness.server, new Headers({ cookie }))).not.toBeNull();
    expect((await scimConsole.entries()).at(-1)?.action).toBe('scim.user.activate');
  });
});

describe('Entra ID’s sequence', () => {
  const userName = 'Test_User_0b1f@contoso.example';
  let id = '';

  it('looks up, creates with the enterprise extension, finds it', async () => {
    const filter = encodeURIComponent(`userName eq "${userName}"`);
    expect((await scim('GET', `/Users?filter=${filter}`)).body.totalResults).toBe(0);
    const created = await scim('POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_11bb@contoso.example' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Support' },
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.body.emails[0].value).toBe('test_user_11bb@contoso.example');
    const found = await scim('GET', `/Users?filter=${filter}`);
    expect(found.body.Resources.map((user: { id: string }) => user.id)).toEqual([id]);
  });

  it('updates the work email and the family name by path', async () => {
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updated@contoso.example' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'title', value: 'kept nowhere: ignored' },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.emails[0].value).toBe('updated@contoso.example');
    expect(patched.body.displayName).toBe('givenName updatedFamilyName');
  });

  it('deactivates with path "active" and the string "False", and back with "True"', async () => {
    const cookie = await signedIn(id, 'updated@contoso.example');
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.body.active).toBe(false);
    expect(await sessionsOf(id)).toBe(0);
    expect(await operatorFromHeaders(harness.server, new Headers({ cookie }))).toBeNull();
    const on = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(on.body.active).toBe(true);
    expect(await bannedOf(id)).toBe(false);
  });

  it('deletes: 204, disabled with no session, 404 from then on, on record', async () => {
    await signedIn(id, 'updated@contoso.example').catch(() => undefined);
    const deleted = await scim('DELETE', `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expect(await bannedOf(id)).toBe(true);
    expect(await sessionsOf(id)).toBe(0);
    const gone = await scim('GET', `/Users/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '404',
    });
    expect((await scimConsole.entries()).at(-1)?.action).toBe('scim.user.delete');
  });

  it('takes a deleted user back when the directory creates the same userName again', async () => {
    const again = await scim('POST', '/Users', { schemas: [USER], userName, active: true });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id, active: true, emails: [{ value: userName.toLowerCase() }] });
    expect(await bannedOf(id)).toBe(false);
  });

  it('answers two creates of one person at once with one operator and one 409', async () => {
    const body = { schemas: [USER], userName: 'racing@contoso.example' };
    const statuses = (await Promise.all([scim('POST', '/Users', body), scim('POST', '/Users', body)])).map(
      (answer) => answer.status,
    );
    expect(statuses.sort()).toEqual([201, 409]);
    const rows = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'racing@contoso.example')
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('groups', () => {
  it('give their members the role SCIM_GROUP_ROLES names; leaving gives the default back', async () => {
    const user = await scim('POST', '/Users', { schemas: [USER], userName: 'grouped@example.com' });
    const id = user.body.id as string;
    const roleOf = async () =>
      (await db.selectFrom('user').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
    const group = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Console Support',
      members: [{ value: id }],
    });
    expect(group.status).toBe(201);
    expect(await roleOf()).toBe('support');
    const admins = await scim('POST', '/Groups', { displayName: 'console admins', members: [] });
    await scim('PATCH', `/Groups/${admins.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
    });
    expect(await roleOf()).toBe('admin');
    expect(
      (await scim('GET', `/Users/${id}`)).body.groups.map((g: { display: string }) => g.display).sort(),
    ).toEqual(['Console Support', 'console admins']);
    await scim('PATCH', `/Groups/${admins.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
    });
    expect(await roleOf()).toBe('support');
    // Entra ID removes members with a value list.
    await scim('PATCH', `/Groups/${group.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }],
    });
    expect(await roleOf()).toBe('viewer');
    const found = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "Console Support"')}`,
    );
    expect(found.body.Resources).toHaveLength(1);
    expect(found.body.Resources[0].members).toEqual([]);
  });
});
