import 'server-only';
import type { Permission } from '@/lib/roles';
import { hasRole } from '@/lib/roles';
import { guardRequest } from '../guard';
import type { Operator } from '../index';
import type { Guard } from './frame';

/**
 * The console's guard: a request from this site, a live session, a settled second factor (unless
 * the route enrols or confirms one) and the permission (lib/server/guard.ts says the order).
 */
export function sessionGuard(
  permission: Permission,
  options: { beforeSecondFactor?: 'to-enrol' | 'to-confirm' } = {},
): Guard<Operator> {
  return async (server, request, scope) => {
    const access = await guardRequest(server, request, permission, options);
    scope.operatorId = access.operator?.id;
    scope.admin = hasRole(access.operator?.role, 'admin');
    return 'error' in access ? { refused: access.error, actor: access.operator } : { actor: access.operator };
  };
}

/** Nobody to check: a public route (the sign-in proxy, an invitation link) guards what it does itself. */
export const anyone: Guard<null> = async () => ({ actor: null });
