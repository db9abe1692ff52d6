import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { fromAnotherSite } from '@/lib/auth/origin';
import { safeReturnPath } from '@/lib/auth/return-path';
import { can, type Permission } from '@/lib/roles';
import { secondFactorDue } from '@/lib/two-factor/step-up';
import { type ConsoleServer, consoleServer, type Operator, operatorFromHeaders } from './index';

/** Where an operator enrols or confirms the second factor the policy asks for; every other page sends them there. */
const ENROLMENT_PAGE = '/account';

/** What a page (or layout) is handed: the console's server and the operator signed in. */
export interface PageContext<O extends Operator | null = Operator> {
  server: ConsoleServer;
  operator: O;
  /**
   * The page was opened by a link on another site (Sec-Fetch-Site): what it records of the
   * person's reading says so, since that site chose what was read.
   */
  fromAnotherSite: boolean;
}

/**
 * A page's (or layout's) first line, and the one way a page gets the console's server: the server
 * and the signed-in operator, or a redirect to /sign-in that comes back to the page asked for
 * (proxy.ts passes its path along), or to the account page for an operator who must enrol a second
 * factor first, or the 403 page for a role without the permission. `'anyone'` is for the pages
 * anyone may see (the sign-in page): the operator is then null when nobody is signed in.
 */
export async function pageContext(access: Permission): Promise<PageContext>;
export async function pageContext(access: 'anyone'): Promise<PageContext<Operator | null>>;
export async function pageContext(access: Permission | 'anyone'): Promise<PageContext<Operator | null>> {
  const server = await consoleServer();
  const requestHeaders = await headers();
  const operator = await operatorFromHeaders(server, requestHeaders);
  const openedFromAnotherSite = fromAnotherSite(requestHeaders);
  if (access === 'anyone') return { server, operator, fromAnotherSite: openedFromAnotherSite };
  if (!operator) {
    const returnTo = safeReturnPath(requestHeaders.get('x-console-path'));
    redirect(returnTo === '/' ? '/sign-in?next=%2F' : `/sign-in?next=${encodeURIComponent(returnTo)}`);
  }
  const path = requestHeaders.get('x-console-path') ?? '';
  const onEnrolmentPage = path === ENROLMENT_PAGE || path.startsWith(`${ENROLMENT_PAGE}?`);
  if (!onEnrolmentPage && secondFactorDue(operator, server.config)) redirect(ENROLMENT_PAGE);
  if (!can(operator.role, access)) forbidden();
  return { server, operator, fromAnotherSite: openedFromAnotherSite };
}
