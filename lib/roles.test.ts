import { describe, expect, it } from 'vitest';
import { can, hasRole, type Permission, parseRole, permissionMinimumRole, type Role, roles } from './roles';

// The table, written out: the code's table must say the same.
const expected: Record<Permission, Record<Role, boolean>> = {
  'console:use': { viewer: true, support: true, admin: true },
  'user-groups:get-or-create': { viewer: false, support: true, admin: true },
  'user-groups:rotate': { viewer: false, support: true, admin: true },
  'user-groups:reveal-token': { viewer: false, support: true, admin: true },
  'user-groups:delete': { viewer: false, support: false, admin: true },
  'operators:manage': { viewer: false, support: false, admin: true },
  'audit:verify': { viewer: false, support: false, admin: true },
};

describe('can', () => {
  for (const permission of Object.keys(permissionMinimumRole) as Permission[]) {
    for (const role of roles) {
      it(`${role} ${expected[permission][role] ? 'may' : 'may not'} ${permission}`, () => {
        expect(can(role, permission)).toBe(expected[permission][role]);
      });
    }
  }

  it('grants nothing without a role', () => {
    for (const permission of Object.keys(permissionMinimumRole) as Permission[]) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });
});

describe('parseRole', () => {
  it.each(['viewer', 'support', 'admin'])('reads %s', (role) => expect(parseRole(role)).toBe(role));
  it.each(['user', 'Admin', 'admin,user', '', null, 3])('refuses %j', (value) =>
    expect(parseRole(value)).toBeNull(),
  );
});

describe('hasRole', () => {
  it('orders viewer < support < admin', () => {
    expect(hasRole('support', 'viewer')).toBe(true);
    expect(hasRole('support', 'admin')).toBe(false);
    expect(hasRole('admin', 'admin')).toBe(true);
  });
});
