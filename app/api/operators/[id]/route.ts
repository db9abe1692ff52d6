import { audit } from '@/lib/audit/server';
import {
  findOperator,
  OperatorChangeError,
  setOperatorDisabled,
  setOperatorRole,
} from '@/lib/auth/operators';
import { updateOperatorSchema } from '@/lib/auth/operators.schema';
import { consoleFailure } from '@/lib/console/errors';
import { operatorRoute, parseJsonRequest } from '@/lib/console/route-handler';

/** Changes one operator: `{ role }` or `{ disabled }`. */
export const PATCH = operatorRoute<{ id: string }>(
  'operators.update',
  'operators:manage',
  async ({ request, operator, requestId, params }) => {
    const parsed = await parseJsonRequest(request, updateOperatorSchema);
    if ('failure' in parsed) return { status: parsed.failure.status, body: parsed.failure.body };
    const target = await findOperator(params.id);
    if (!target) {
      const failure = consoleFailure(404, 'not_found', 'No operator has that id.');
      return { status: failure.status, body: failure.body };
    }
    const change = parsed.data;
    const action =
      'role' in change ? 'operator.set-role' : change.disabled ? 'operator.disable' : 'operator.enable';
    const detail =
      'role' in change ? `${target.email}: ${target.role ?? 'no role'} → ${change.role}` : target.email;
    try {
      if ('role' in change) await setOperatorRole(operator, target.id, change.role, request.headers);
      else await setOperatorDisabled(operator, target.id, change.disabled, request.headers);
    } catch (error) {
      if (!(error instanceof OperatorChangeError)) throw error;
      await audit({ action, operator, outcome: error.failure.body.error.code, requestId, detail });
      return { status: error.failure.status, body: error.failure.body };
    }
    await audit({ action, operator, outcome: 'success', requestId, detail });
    return { body: { operator: await findOperator(target.id) } };
  },
);
