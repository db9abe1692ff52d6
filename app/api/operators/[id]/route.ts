import { findOperator, setOperatorDisabled, setOperatorRole } from '@/lib/auth/operators';
import { type UpdateOperatorRequest, updateOperatorSchema } from '@/lib/auth/operators.schema';
import { ConsoleError } from '@/lib/console-api/console-error';
import { audit } from '@/lib/server/audit-log';
import { consoleRoute } from '@/lib/server/route';

/** Changes one operator: `{ role }` or `{ disabled }`. */
export const PATCH = consoleRoute<UpdateOperatorRequest, unknown, { id: string }>(
  { name: 'operators.update', permission: 'operators:manage', body: updateOperatorSchema },
  async ({ request, operator, requestId, body: change, params, server }) => {
    const target = await findOperator(server, params.id);
    if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
    const action =
      'role' in change ? 'operator.set-role' : change.disabled ? 'operator.disable' : 'operator.enable';
    const detail =
      'role' in change ? `${target.email}: ${target.role ?? 'no role'} → ${change.role}` : target.email;
    try {
      if ('role' in change)
        await setOperatorRole(server, operator.id, target.id, change.role, request.headers);
      else await setOperatorDisabled(server, operator.id, target.id, change.disabled, request.headers);
    } catch (error) {
      if (error instanceof ConsoleError)
        await audit({ action, operator, outcome: error.code, requestId, detail });
      throw error;
    }
    await audit({ action, operator, outcome: 'success', requestId, detail });
    return { operator: await findOperator(server, target.id) };
  },
);
