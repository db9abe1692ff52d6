import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { safeReturnPath } from '@/lib/auth/return-path';
import { can, type Permission } from '@/lib/roles';
import { consoleServer, type Operator, operatorFromHeaders } from './index';
import { secondFactorDue } from './step-up';

/** Where an operator enrols or confirms the second factor the policy asks for; every other page sends them there. */
const ENROLMENT_PAGE = '/account';

/**
 * A page's (or layout's) first line: the signed-in operator, or a redirect to /sign-in that comes
 * back to the page asked for (proxy.ts passes its path along), or to the account page for an
 * operator who must enrol a second factor first, or the 403 page for a role without the permission.
 */
export async function requirePageOperator(permission: Permission): Promise<Operator> {
  const requestHeaders = await headers();
  const operator = await operatorFromHeaders(requestHeaders);
  if (!operator) {
    const returnTo = safeReturnPath(requestHeaders.get('x-console-path'));
    redirect(returnTo === '/' ? '/sign-in?next=%2F' : `/sign-in?next=${encodeURIComponent(returnTo)}`);
  }
  const path = requestHeaders.get('x-console-path') ?? '';
  const onEnrolmentPage = path === ENROLMENT_PAGE || path.startsWith(`${ENROLMENT_PAGE}?`);
  if (!onEnrolmentPage && secondFactorDue(operator, (await consoleServer()).config)) redirect(ENROLMENT_PAGE);
  if (!can(operator.role, permission)) forbidden();
  return operator;
}

/** For pages anyone may see (the sign-in page): the operator when signed in. */
export async function currentOperator(): Promise<Operator | null> {
  return operatorFromHeaders(await headers());
}
