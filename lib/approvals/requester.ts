import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { can, type Permission, parseRole } from '@/lib/roles';
import type { ConsoleServer, Operator } from '@/lib/server';
import type { ApprovalRow } from './store';

/** The requester, still allowed to do the action (not disabled, role not lowered meanwhile). */
export async function requesterOf(server: ConsoleServer, row: ApprovalRow): Promise<Operator> {
  const user = await server.database.db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'role', 'banned', 'twoFactorEnabled'])
    .where('id', '=', row.requested_by)
    .executeTakeFirst();
  const role = parseRole(user?.role);
  if (!user || user.banned === true || user.banned === 1 || !can(role, row.permission as Permission))
    throw new ConsoleError(
      'conflict',
      `${row.requested_by_email} may no longer do this: reject the request.`,
    );
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role,
    twoFactorEnabled: user.twoFactorEnabled === true || user.twoFactorEnabled === 1,
    passkeys: 0,
    // Not a session of theirs: the action runs on their behalf, no step-up or session of theirs used.
    session: { id: '', signInMethod: 'password', authenticatedAt: 0, secondFactorProved: false },
  };
}
