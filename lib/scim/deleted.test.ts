/**
 * A leaver deleted by the directory, and the same userName created again (a rehire, or a new person
 * given the old address): the operator the console takes back has none of the leaver's ways in: no
 * passkey, no authenticator app, no password, no single sign-on link, no session, no open invitation.
 * Over real HTTP, on SQLite and on PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { makeInvitation } from '@/lib/invitations/store';
import { setFirstPassword } from '@/lib/operators/store';
import { startScimConsole } from './test-support';

const scimConsole = await startScimConsole('scim-leaver', 3966);
const { scim, db, harness } = scimConsole;
afterAll(() => scimConsole.close());

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const userName = 'leaver@example.com';

/** Every way in the operator has, counted from the database. */
async function waysIn(id: string) {
  const count = async (table: 'passkey' | 'twoFactor' | 'account' | 'session') =>
    (await db.selectFrom(table).select('id').where('userId', '=', id).execute()).length;
  const user = await db
    .selectFrom('user')
    .select('twoFactorEnabled')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const invitations = await db
    .selectFrom('operator_invitation')
    .select('id')
    .where('user_id', '=', id)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .execute();
  return {
    passkeys: await count('passkey'),
    authenticatorApp: (await count('twoFactor')) + (user.twoFactorEnabled ? 1 : 0),
    accounts: await count('account'),
    sessions: await count('session'),
    invitations: invitations.length,
  };
}
const none = { passkeys: 0, authenticatorApp: 0, accounts: 0, sessions: 0, invitations: 0 };

describe('a deleted operator', () => {
  it('keeps none of their ways in, and a re-created userName gets none of them back', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // The leaver's ways in, made through better-auth as its plugins make them.
    const context = await harness.server.auth.$context;
    await setFirstPassword(harness.server, id, 'the-leavers-password');
    await harness.signIn(userName, 'the-leavers-password');
    await context.internalAdapter.linkAccount({ userId: id, providerId: 'okta', accountId: 'okta-leaver' });
    await context.adapter.create({
      model: 'passkey',
      data: {
        name: 'Leaver’s key',
        publicKey: 'cHVibGljLWtleQ',
        userId: id,
        credentialID: 'leaver-credential',
        counter: 0,
        deviceType: 'singleDevice',
        backedUp: false,
        transports: 'usb',
        createdAt: new Date(),
      },
    });
    await context.adapter.create({
      model: 'twoFactor',
      data: { secret: 'encrypted-secret', backupCodes: 'encrypted-codes', userId: id },
    });
    await context.internalAdapter.updateUser(id, { twoFactorEnabled: true });
    await makeInvitation(harness.server.database.db, id, null, new Date(harness.server.clock.now()));
    expect(await waysIn(id)).toEqual({
      passkeys: 1,
      authenticatorApp: 2,
      accounts: 2,
      sessions: 1,
      invitations: 1,
    });

    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect(await waysIn(id)).toEqual(none);

    const again = await scim('POST', '/Users', { schemas: [USER], userName });
    expect(again.status).toBe(201);
    expect(await waysIn(again.body.id)).toEqual(none);
    await expect(harness.signIn(userName, 'the-leavers-password')).rejects.toThrow();
    // The audit log still names the leaver's deletion.
    expect((await scimConsole.entries()).map((entry) => entry.action)).toEqual([
      'scim.user.create',
      'scim.user.delete',
      'scim.user.create',
    ]);
  });
});
