import { consoleRoutes } from '@/lib/console-api/routes';
import { refuseDirectoryManaged, targetOperator } from '@/lib/operators/server';
import { findOperator, setOperatorDisabled, setOperatorRole } from '@/lib/operators/store';
import { consoleRoute } from '@/lib/server/route';

/** Changes one operator: `{ role }` or `{ disabled }`, on record before it happens. */
export const PATCH = consoleRoute(
  {
    ...consoleRoutes.updateOperator,
    load: targetOperator,
    // Before any approval request: a change the directory owns is refused at once.
    check: (_change, target) => refuseDirectoryManaged(target),
    audit: {
      action: (change) =>
        'role' in change ? 'operator.set-role' : change.disabled ? 'operator.disable' : 'operator.enable',
      request: (change, target) => ({
        detail:
          'role' in change ? `${target.email}: ${target.role ?? 'no role'} → ${change.role}` : target.email,
      }),
    },
    approval: {
      // Enabling a disabled admin gives admin power back: granting admin as much as a role change.
      action: (change, target) =>
        'role' in change
          ? change.role === 'admin' && target.role !== 'admin'
            ? 'grant-admin'
            : null
          : !change.disabled && target.disabled && target.role === 'admin'
            ? 'grant-admin'
            : null,
      subject: (change, target) =>
        'role' in change ? `${target.email} as admin` : `${target.email} enabled again, as admin`,
    },
  },
  async ({ request, operator, body: change, subject: target, server }) => {
    if ('role' in change) await setOperatorRole(server, operator.id, target.id, change.role, request.headers);
    else await setOperatorDisabled(server, operator.id, target.id, change.disabled, request.headers);
    return { operator: await findOperator(server, target.id) };
  },
);
