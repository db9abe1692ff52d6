/**
 * Operator sign-in settings, parsed once from the environment. Plain module (no `server-only`):
 * the launcher reads it under tsx to migrate the console database and create the first admin,
 * and the Next server reads it lazily (never at import: `next build` runs modules).
 *
 * Optional groups come back `null` when not configured: `oidc` is null unless OIDC_CLIENT_ID and
 * an issuer or discovery URL are set, and the SSO button then stays hidden.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies, type TrustedProxies } from './client-address';
import { type Role, roleSchema } from './roles';

const DEFAULT_ADMIN_EMAIL = 'admin@console.localhost';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const rateLimitSchema = z
  .string()
  .trim()
  .default('5/60')
  .transform((value, context) => {
    if (value.toLowerCase() === 'off') return null;
    const match = /^(\d+)\s*\/\s*(\d+)$/.exec(value);
    const max = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]);
    if (!match || max < 1 || windowSeconds < 1) {
      context.addIssue({
        code: 'custom',
        message: 'CONSOLE_SIGN_IN_RATE_LIMIT must be "attempts/seconds" (for example 5/60) or "off"',
      });
      return z.NEVER;
    }
    return { max, windowSeconds };
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  CONSOLE_URL: z
    .url({ protocol: /^https?$/, error: 'CONSOLE_URL must be an http(s) URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BETTER_AUTH_SECRET: z
    .string()
    .min(32, { error: 'BETTER_AUTH_SECRET must be at least 32 characters' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CONSOLE_SESSION_TTL_HOURS: z.coerce
    .number({ error: 'CONSOLE_SESSION_TTL_HOURS must be a number of hours' })
    .positive()
    .max(24 * 30)
    .default(12),
  CONSOLE_SIGN_IN_RATE_LIMIT: rateLimitSchema,
  CONSOLE_ADMIN_EMAIL: z
    .email({ error: 'CONSOLE_ADMIN_EMAIL must be an email address' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CONSOLE_ADMIN_PASSWORD: z
    .string()
    .min(12, { error: 'CONSOLE_ADMIN_PASSWORD must be at least 12 characters' })
    .max(128)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC_ISSUER: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OIDC_DISCOVERY_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_PROVIDER_NAME: optionalText,
  OIDC_SCOPES: optionalText,
  OIDC_NEW_OPERATOR_ROLE: z
    .union([roleSchema, z.literal('none')], {
      error: 'OIDC_NEW_OPERATOR_ROLE must be viewer, support, admin or none',
    })
    .default('none'),
  OIDC_ALLOWED_DOMAINS: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*$/i, {
        error:
          'OIDC_ALLOWED_DOMAINS must be a comma-separated list of email domains (example.com, example.org)',
      })
      .optional(),
  ),
  CONSOLE_TRUSTED_PROXIES: optionalText,
});

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

export interface AuthConfig {
  dataDir: string;
  databaseFile: string;
  /** Where people reach the console; decides `Secure` cookies and better-auth's base URL. */
  consoleUrl: URL;
  /** Origins allowed to send state-changing requests. */
  trustedOrigins: string[];
  secureCookies: boolean;
  secret: string | undefined;
  sessionTtlSeconds: number;
  signInRateLimit: { max: number; windowSeconds: number } | null;
  /** Proxies whose X-Forwarded-For is believed; empty: the socket address is the client. */
  trustedProxies: TrustedProxies;
  firstAdmin: { email: string; password: string | undefined };
  oidc: OidcConfig | null;
}

export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

export function parseAuthConfig(env: Readonly<Record<string, string | undefined>>): AuthConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Variable names and rules only: values may be secret.
    const problems = parsed.error.issues
      .map((issue) =>
        issue.message.includes(String(issue.path[0]))
          ? issue.message
          : `${String(issue.path[0])}: ${issue.message}`,
      )
      .join('; ');
    throw new AuthConfigError(`Operator sign-in is not configured: ${problems}.`);
  }
  const settings = parsed.data;
  const consoleUrl = new URL(settings.CONSOLE_URL ?? `http://localhost:${settings.PORT}`);
  const dataDir = path.resolve(settings.DATA_DIR);
  // Loopback origins serve a console reached over plain http only: an https console is reached
  // through its public name, and a page on someone's localhost must not act on it.
  const loopbackOrigins =
    consoleUrl.protocol === 'http:'
      ? [`http://localhost:${settings.PORT}`, `http://127.0.0.1:${settings.PORT}`]
      : [];
  const trustedOrigins = [...new Set([consoleUrl.origin, ...loopbackOrigins])];
  const trustedProxies = parseTrustedProxies(settings.CONSOLE_TRUSTED_PROXIES);
  if (trustedProxies instanceof Error) throw new AuthConfigError(trustedProxies.message);
  return {
    dataDir,
    databaseFile: path.join(dataDir, 'console.sqlite'),
    consoleUrl,
    trustedOrigins,
    secureCookies: consoleUrl.protocol === 'https:',
    secret: settings.BETTER_AUTH_SECRET,
    sessionTtlSeconds: Math.round(settings.CONSOLE_SESSION_TTL_HOURS * 3600),
    signInRateLimit: settings.CONSOLE_SIGN_IN_RATE_LIMIT,
    trustedProxies,
    firstAdmin: {
      email: (settings.CONSOLE_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL).toLowerCase(),
      password: settings.CONSOLE_ADMIN_PASSWORD,
    },
    oidc: oidcConfig(settings),
  };
}

function oidcConfig(settings: z.infer<typeof envSchema>): OidcConfig | null {
  const discoveryUrl =
    settings.OIDC_DISCOVERY_URL ??
    (settings.OIDC_ISSUER
      ? `${settings.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`
      : undefined);
  if (!settings.OIDC_CLIENT_ID && !discoveryUrl) return null;
  if (!settings.OIDC_CLIENT_ID || !discoveryUrl) {
    throw new AuthConfigError(
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

let cached: AuthConfig | undefined;

/** The process's configuration, read on first use. */
export function authConfig(): AuthConfig {
  cached ??= parseAuthConfig(process.env);
  return cached;
}
