import { findOperator, setOperatorDisabled, setOperatorRole } from '@/lib/auth/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { consoleRoute } from '@/lib/server/route';

/** Changes one operator: `{ role }` or `{ disabled }`, on record before it happens. */
export const PATCH = consoleRoute(
  consoleRoutes.updateOperator,
  async ({ request, operator, requestId, body: change, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    const action =
      'role' in change ? 'operator.set-role' : change.disabled ? 'operator.disable' : 'operator.enable';
    const detail =
      'role' in change ? `${target.email}: ${target.role ?? 'no role'} → ${change.role}` : target.email;
    await server.auditLog.onRecord({ action, operator, requestId, detail }, () =>
      'role' in change
        ? setOperatorRole(server, operator.id, target.id, change.role, request.headers)
        : setOperatorDisabled(server, operator.id, target.id, change.disabled, request.headers),
    );
    return { operator: await findOperator(server, target.id) };
  },
);
