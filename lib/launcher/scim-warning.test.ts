import { afterAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { parseConfig } from '@/lib/config';
import { createTestDatabaseLocation } from '@/lib/testing/console-test-database';
import { prepareOperatorSignIn } from './operator-sign-in';

// The launcher's output is what the person starting the console reads: a directory group mapped to
// admin is said there, since its members become admins with no two-person approval in the console.
const database = await createTestDatabaseLocation('scim-warning');
afterAll(() => database.dispose());

const startingWith = async (
  groupRoles: string,
  approval: Record<string, string> = {},
  about = 'SCIM_GROUP_ROLES',
) => {
  const lines: string[] = [];
  const config = parseConfig({
    ...database.env,
    PORT: '3967',
    CONSOLE_ADMIN_PASSWORD: 'scim-warning-admin-password',
    SCIM_TOKEN: 's'.repeat(32),
    SCIM_GROUP_ROLES: groupRoles,
    ...approval,
  });
  await prepareOperatorSignIn(config, (line) => lines.push(line), testClock());
  return lines.filter((line) => line.includes(about));
};

describe('starting the console with SCIM', () => {
  it('warns when SCIM_GROUP_ROLES maps a group to admin, and only then', async () => {
    const warned = await startingWith('Console Admins=admin,Console Support=support');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^warning: SCIM_GROUP_ROLES maps "console admins" to admin/);
    expect(warned[0]).toContain('without the console');
    expect(await startingWith('Console Support=support')).toEqual([]);
  });

  it('says the directory makes admins without a second person when grant-admin needs approval', async () => {
    const policy = { CONSOLE_REQUIRE_APPROVAL: 'grant-admin' };
    const warned = await startingWith('Console Admins=admin', policy, 'CONSOLE_REQUIRE_APPROVAL');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^warning: CONSOLE_REQUIRE_APPROVAL names grant-admin/);
    expect(warned[0]).toContain('the directory makes admins without a second person');
    expect(await startingWith('Console Admins=admin', {}, 'CONSOLE_REQUIRE_APPROVAL')).toEqual([]);
    expect(await startingWith('Console Support=support', policy, 'CONSOLE_REQUIRE_APPROVAL')).toEqual([]);
  });
});
