/**
 * Who may enter the console through single sign-on. better-auth links an IdP identity to an
 * operator with the same email; an IdP whose users can set their own email would otherwise hand
 * out any operator's account, the first admin's included. So:
 *
 * - The IdP must assert the email is verified (better-auth refuses to link otherwise, since the
 *   console no longer marks its provider trusted; sign-ups are refused here).
 * - An operator is bound to one IdP identity, on their first SSO sign-in after an admin added
 *   them: a second identity claiming the same email is refused.
 * - With OIDC_ALLOWED_DOMAINS, only emails at those domains may use SSO at all.
 * - With OIDC_NEW_OPERATOR_ROLE=none, SSO never creates an operator, whatever the request asks.
 */
import type { OidcConfig } from '@/lib/config';

function emailDomainAllowed(email: string, allowedDomains: readonly string[] | null): boolean {
  if (allowedDomains === null) return true;
  const domain = email.toLowerCase().split('@').pop() ?? '';
  return allowedDomains.includes(domain);
}

/** Why SSO may not create this person as a new operator, or null when it may. */
export function ssoSignUpRefusal(
  person: { email: string; emailVerified?: boolean | null },
  oidc: OidcConfig,
): string | null {
  if (oidc.newOperatorRole === null) return 'single sign-on admits only operators an admin added';
  if (person.emailVerified !== true) return 'the identity provider did not verify the email';
  if (!emailDomainAllowed(person.email, oidc.allowedDomains)) return 'the email domain is not allowed';
  return null;
}

/** Why SSO may not link an identity to this existing operator, or null when it may. */
export function ssoLinkRefusal(
  operator: { email: string; ssoAccounts: number },
  oidc: OidcConfig,
): string | null {
  if (operator.ssoAccounts > 0) return 'the operator is already bound to another identity';
  if (!emailDomainAllowed(operator.email, oidc.allowedDomains)) return 'the email domain is not allowed';
  return null;
}
