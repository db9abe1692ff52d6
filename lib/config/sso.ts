import { z } from 'zod';
import { type Role, roleSchema } from '@/lib/roles';
import { ConfigError, httpUrl, optional, type ParsedEnv } from './env-values';

export interface OidcConfig {
  /** better-auth's provider id: the callback is /api/auth/callback/oidc. */
  providerId: 'oidc';
  displayName: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string[];
  /** Role of a person signing in through SSO for the first time; null refuses unknown people. */
  newOperatorRole: Role | null;
  /** When set, only emails at these domains (lower case) may sign in through SSO at all. */
  allowedDomains: string[] | null;
}

/** Single sign-on through an OpenID Connect identity provider. */
export const ssoEnv = {
  OIDC_ISSUER: optional(httpUrl('OIDC_ISSUER')),
  OIDC_DISCOVERY_URL: optional(httpUrl('OIDC_DISCOVERY_URL')),
  OIDC_CLIENT_ID: optional(z.string().trim()),
  OIDC_CLIENT_SECRET: optional(z.string().trim()),
  OIDC_PROVIDER_NAME: optional(z.string().trim()),
  OIDC_SCOPES: optional(z.string().trim()),
  OIDC_NEW_OPERATOR_ROLE: z
    .union([roleSchema, z.literal('none')], {
      error: 'OIDC_NEW_OPERATOR_ROLE must be viewer, support, admin or none',
    })
    .default('none'),
  OIDC_ALLOWED_DOMAINS: optional(
    z.string().regex(/^\s*[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*\s*$/i, {
      error:
        'OIDC_ALLOWED_DOMAINS must be a comma-separated list of email domains (example.com, example.org)',
    }),
  ),
};

/** SSO when its client id and its IdP are set, null when neither is; half of it is refused. */
export function oidcConfig(settings: ParsedEnv<typeof ssoEnv>): OidcConfig | null {
  const discoveryUrl =
    settings.OIDC_DISCOVERY_URL ??
    (settings.OIDC_ISSUER
      ? `${settings.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`
      : undefined);
  if (!settings.OIDC_CLIENT_ID && !discoveryUrl) return null;
  if (!settings.OIDC_CLIENT_ID || !discoveryUrl) {
    throw new ConfigError(
      'SSO is half configured: set OIDC_CLIENT_ID and one of OIDC_ISSUER or OIDC_DISCOVERY_URL (and usually OIDC_CLIENT_SECRET), or none of them.',
    );
  }
  return {
    providerId: 'oidc',
    displayName: settings.OIDC_PROVIDER_NAME ?? 'single sign-on',
    discoveryUrl,
    clientId: settings.OIDC_CLIENT_ID,
    clientSecret: settings.OIDC_CLIENT_SECRET,
    scopes: (settings.OIDC_SCOPES ?? 'openid email profile').split(/[\s,]+/).filter(Boolean),
    newOperatorRole: settings.OIDC_NEW_OPERATOR_ROLE === 'none' ? null : settings.OIDC_NEW_OPERATOR_ROLE,
    allowedDomains: settings.OIDC_ALLOWED_DOMAINS
      ? settings.OIDC_ALLOWED_DOMAINS.split(',').map((domain) => domain.trim().toLowerCase())
      : null,
  };
}
