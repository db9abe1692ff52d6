import 'server-only';
import { checkRequestOrigin } from '@/lib/auth/origin';
import type { ConsoleError } from '@/lib/console-error';
import { can, type Permission, permissionWords } from '@/lib/roles';
import { secondFactorDue, secondFactorRequired } from '@/lib/two-factor/step-up';
import { accessErrors } from './errors';
import { type ConsoleServer, type Operator, operatorFromHeaders } from './index';

export type GuardResult =
  | { operator: Operator }
  | {
      error: ConsoleError;
      operator: Operator | null;
      reason: 'cross-site' | 'unauthenticated' | 'forbidden';
    };

/**
 * Every route handler's first step, in this order: a request from another site is refused, a GET
 * too (403 cross_site_request: the routes' reads write to the audit log), then a request without a
 * live session (401 unauthenticated), then an operator who must enrol or confirm a second factor
 * first (403 second_factor_required, except on the routes that enrol or confirm one), then an
 * operator whose role lacks the permission (403 forbidden).
 */
export async function guardRequest(
  server: Pick<ConsoleServer, 'auth' | 'config' | 'database'>,
  request: Request,
  permission: Permission,
  { beforeSecondFactor }: { beforeSecondFactor?: 'to-enrol' | 'to-confirm' } = {},
): Promise<GuardResult> {
  const { config } = server;
  if (checkRequestOrigin(request, config.trustedOrigins, { readsToo: true }) === 'cross-site') {
    return { error: accessErrors.crossSite(), operator: null, reason: 'cross-site' };
  }
  const operator = await operatorFromHeaders(server, request.headers);
  if (!operator) return { error: accessErrors.unauthenticated(), operator: null, reason: 'unauthenticated' };
  const due = secondFactorDue(operator, config);
  const open =
    due === null ||
    beforeSecondFactor === 'to-confirm' ||
    (due === 'enrol' && beforeSecondFactor === 'to-enrol');
  if (due && !open) return { error: secondFactorRequired(due), operator, reason: 'forbidden' };
  if (!can(operator.role, permission)) {
    return {
      error: accessErrors.forbidden(permissionWords[permission]),
      operator,
      reason: 'forbidden',
    };
  }
  return { operator };
}
