/**
 * The console's configuration, parsed once from the environment with one schema, for the launcher
 * and the Next server alike. Plain module (no `server-only`): the launcher runs it under tsx.
 * Optional groups come back `null` when not configured: `oidc` unless SSO is set up, `upstream`
 * while the launcher has not yet started the embedded service.
 *
 * Error messages name variables and rules, never values: values may be secret.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ConsoleDatabaseLocation } from '@/lib/db/console-database';
import { type Environment, environments } from '@/lib/environments';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@/lib/node-http/limits';
import { type Role, roleSchema } from '@/lib/roles';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies';

const DEFAULT_ADMIN_EMAIL = 'admin@console.localhost';
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof logLevels)[number];

/** `''` (as .env files leave a variable) means unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

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

/** A bulk job's pace against a server: requests per minute, or "unlimited" (the embedded service). */
const requestsPerMinute = (name: string) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      if (value.toLowerCase() === 'unlimited') return null;
      const rate = Number(value);
      if (!Number.isInteger(rate) || rate < 1) {
        context.addIssue({
          code: 'custom',
          message: `${name} must be a whole number of requests per minute or "unlimited"`,
        });
        return z.NEVER;
      }
      return rate;
    });

/** The pace of a vendor that says nothing else: 180 a minute per caller is typical. */
const DEFAULT_REQUESTS_PER_MINUTE = 180;

/** A whole number of milliseconds (or connections) above zero, for the console's HTTP limits. */
const positiveInteger = (name: string, unit: string, fallback: number) =>
  optional(
    z.coerce
      .number({ error: `${name} must be a number of ${unit}` })
      .int({ error: `${name} must be a whole number of ${unit}` })
      .positive({ error: `${name} must be above zero` }),
  ).transform((value) => value ?? fallback);

/**
 * The console's own server (lib/launcher/console-http-server.ts) takes the service's limits, but a
 * whole request may take 2 minutes: a bulk job's body is up to 12 MiB (100 KB/s).
 */
export const DEFAULT_CONSOLE_HTTP_LIMITS: HttpLimits = { ...DEFAULT_HTTP_LIMITS, requestTimeoutMs: 120_000 };

const httpUrl = (name: string) => z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  CONSOLE_HOSTNAME: optional(z.string()),
  HOSTNAME: optional(z.string()),
  DATA_DIR: optional(z.string()).transform((value) => value ?? './data'),
  // Checked by shape only: the message must not repeat the value, which holds a password.
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\/[^/?#\s]+\/[^/?#\s]+/i, {
      error:
        'DATABASE_URL must be a PostgreSQL URL (postgres:// or postgresql://, a host and a database name), or unset for the SQLite file in DATA_DIR',
    }),
  ),
  CONSOLE_URL: optional(httpUrl('CONSOLE_URL')),
  // Checked by shape only, as DATABASE_URL: the value may hold a password.
  REDIS_URL: optional(
    z.string().regex(/^rediss?:\/\/\S+$/i, {
      error: 'REDIS_URL must be a redis:// or rediss:// URL, or unset to count rate limits per process',
    }),
  ),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SERVICE_LOG_LEVEL: z.enum(logLevels).default('warn'),
  USER_GROUP_API_URL: optional(httpUrl('USER_GROUP_API_URL')),
  USER_GROUP_API_KEY: optional(z.string()),
  USER_GROUP_API_ENVIRONMENT: z
    .enum(environments, { error: 'USER_GROUP_API_ENVIRONMENT must be Customer or Testing' })
    .default('Customer'),
  USER_GROUP_API_KEY_CUSTOMER: optional(z.string()),
  USER_GROUP_API_KEY_TESTING: optional(z.string()),
  USER_GROUP_API_URL_CUSTOMER: optional(httpUrl('USER_GROUP_API_URL_CUSTOMER')),
  USER_GROUP_API_URL_TESTING: optional(httpUrl('USER_GROUP_API_URL_TESTING')),
  USER_GROUP_API_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  USER_GROUP_API_REQUESTS_PER_MINUTE: optional(requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE')),
  USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER: optional(
    requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER'),
  ),
  USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING: optional(
    requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING'),
  ),
  CONSOLE_JOB_CONCURRENCY: z.coerce
    .number({ error: 'CONSOLE_JOB_CONCURRENCY must be a number' })
    .int()
    .min(1)
    .max(64, { error: 'CONSOLE_JOB_CONCURRENCY must be between 1 and 64' })
    .default(8),
  CONSOLE_JOB_TOKEN_KEY: optional(
    z.string().regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, {
      error: 'CONSOLE_JOB_TOKEN_KEY must be 64 hex characters or the base64 of 32 bytes',
    }),
  ),
  BETTER_AUTH_SECRET: optional(
    z.string().min(32, { error: 'BETTER_AUTH_SECRET must be at least 32 characters' }),
  ),
  CONSOLE_SESSION_TTL_HOURS: z.coerce
    .number({ error: 'CONSOLE_SESSION_TTL_HOURS must be a number of hours' })
    .positive()
    .max(24 * 30)
    .default(12),
  CONSOLE_SIGN_IN_RATE_LIMIT: rateLimitSchema,
  CONSOLE_REQUIRE_2FA: optional(z.string()).transform((value, context) => {
    const names = (value ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '' && name !== 'none');
    const unknown = names.filter((name) => !roleSchema.safeParse(name).success);
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: 'CONSOLE_REQUIRE_2FA must list roles (admin, support, viewer), comma-separated, or be unset',
      });
      return z.NEVER;
    }
    return [...new Set(names)] as Role[];
  }),
  CONSOLE_REQUIRE_2FA_FOR_SSO: optional(z.enum(['true', 'false', '1', '0'])).transform(
    (value) => value === 'true' || value === '1',
  ),
  CONSOLE_STEP_UP_MINUTES: positiveInteger('CONSOLE_STEP_UP_MINUTES', 'minutes', 15),
  CONSOLE_TRUSTED_PROXIES: optional(z.string()),
  METRICS_TOKEN: optional(z.string().min(16, { error: 'METRICS_TOKEN must be at least 16 characters' })),
  CONSOLE_HEADERS_TIMEOUT_MS: positiveInteger(
    'CONSOLE_HEADERS_TIMEOUT_MS',
    'milliseconds',
    DEFAULT_CONSOLE_HTTP_LIMITS.headersTimeoutMs,
  ),
  CONSOLE_REQUEST_TIMEOUT_MS: positiveInteger(
    'CONSOLE_REQUEST_TIMEOUT_MS',
    'milliseconds',
    DEFAULT_CONSOLE_HTTP_LIMITS.requestTimeoutMs,
  ),
  CONSOLE_KEEP_ALIVE_TIMEOUT_MS: positiveInteger(
    'CONSOLE_KEEP_ALIVE_TIMEOUT_MS',
    'milliseconds',
    DEFAULT_CONSOLE_HTTP_LIMITS.keepAliveTimeoutMs,
  ),
  CONSOLE_MAX_CONNECTIONS: positiveInteger(
    'CONSOLE_MAX_CONNECTIONS',
    'connections',
    DEFAULT_CONSOLE_HTTP_LIMITS.maxConnections,
  ),
  CONSOLE_ADMIN_EMAIL: optional(z.email({ error: 'CONSOLE_ADMIN_EMAIL must be an email address' })),
  CONSOLE_ADMIN_PASSWORD: optional(
    z
      .string()
      .min(MIN_PASSWORD_LENGTH, {
        error: `CONSOLE_ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`,
      })
      .max(MAX_PASSWORD_LENGTH, {
        error: `CONSOLE_ADMIN_PASSWORD must be at most ${MAX_PASSWORD_LENGTH} characters`,
      }),
  ),
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

interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Bulk jobs' pace against this server; null: unlimited. */
  requestsPerMinute: number | null;
}

export interface ConsoleConfig {
  port: number;
  /** The interface the console listens on. */
  hostname: string;
  dataDir: string;
  /**
   * The console's own database (operators, sessions, audit log, directory): PostgreSQL when
   * DATABASE_URL is set (several console instances share it), else DATA_DIR/console.sqlite.
   */
  database: ConsoleDatabaseLocation;
  /**
   * Where the sign-in limit counts and bulk jobs keep their pace (lib/rate-limit): Redis, shared by
   * every instance, or null: per process.
   */
  redisUrl: string | null;
  logLevel: LogLevel;
  serviceLogLevel: LogLevel;
  /** Where people reach the console; decides `Secure` cookies and better-auth's base URL. */
  consoleUrl: URL;
  /** Origins allowed to send state-changing requests. */
  trustedOrigins: string[];
  secureCookies: boolean;
  /** Proxies whose X-Forwarded-For is believed; null: the socket address is the client. */
  trustedProxies: TrustedProxies;
  /** Opens /metrics to `Authorization: Bearer <token>` from anywhere; null: loopback only. */
  metricsToken: string | null;
  /** The limits of the console's own node:http server against slow, idle or too many clients. */
  http: HttpLimits;
  /**
   * Each environment's server and key; null when the environment has no key (shown as not
   * configured), or until the launcher has started the embedded service.
   */
  upstreams: Record<Environment, UpstreamConfig | null>;
  auth: {
    secret: string | undefined;
    sessionTtlSeconds: number;
    signInRateLimit: { max: number; windowSeconds: number } | null;
    /** Roles whose password operators must have a second factor before they may do anything else. */
    requireSecondFactor: Role[];
    /** …and SSO operators too (otherwise their identity provider decides). */
    requireSecondFactorForSso: boolean;
    /** A Customer token or change needs an authentication this recent (a sign-in or a step-up). */
    stepUpSeconds: number;
    firstAdmin: { email: string; password: string | undefined };
  };
  oidc: OidcConfig | null;
  jobs: {
    /** Requests in flight per job. */
    concurrency: number;
    /** The key sealing jobs' tokens at rest; unset: a key file under DATA_DIR. */
    tokenKey: string | undefined;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

export function parseConfig(env: Env): ConsoleConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => {
        const name = String(issue.path[0]);
        return issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
      })
      .join('; ');
    throw new ConfigError(`The console is not configured: ${problems}.`);
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
  const trustedProxies = parseTrustedProxies(settings.CONSOLE_TRUSTED_PROXIES);
  if (trustedProxies instanceof Error) throw new ConfigError(trustedProxies.message);
  // Several instances share a PostgreSQL database and each other's sessions: a secret generated
  // into each instance's DATA_DIR would make every other instance refuse its cookies.
  if (settings.DATABASE_URL && !settings.BETTER_AUTH_SECRET) {
    throw new ConfigError(
      'DATABASE_URL is set but BETTER_AUTH_SECRET is not: set it (32+ characters), the same on every console instance that shares the database.',
    );
  }
  // Node refuses a headers timeout longer than the request timeout.
  if (settings.CONSOLE_HEADERS_TIMEOUT_MS > settings.CONSOLE_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('CONSOLE_HEADERS_TIMEOUT_MS must not exceed CONSOLE_REQUEST_TIMEOUT_MS.');
  }
  const upstreams = upstreamsOf(settings);
  // A key without a server must not fall back to the embedded service: "Customer (production)"
  // would then be a local sandbox.
  for (const environment of environments) {
    const variable = `USER_GROUP_API_KEY_${environment.toUpperCase()}`;
    const key =
      settings[variable as 'USER_GROUP_API_KEY_CUSTOMER'] ??
      (settings.USER_GROUP_API_ENVIRONMENT === environment ? settings.USER_GROUP_API_KEY : undefined);
    if (key && !upstreams[environment]) {
      throw new ConfigError(
        `An API key for ${environment} is set but no server: set USER_GROUP_API_URL (or USER_GROUP_API_URL_${environment.toUpperCase()}).`,
      );
    }
  }
  if (settings.USER_GROUP_API_URL && !upstreams.Customer && !upstreams.Testing) {
    throw new ConfigError(
      'USER_GROUP_API_URL is set but no API key is: set USER_GROUP_API_KEY_CUSTOMER and/or USER_GROUP_API_KEY_TESTING (or USER_GROUP_API_KEY).',
    );
  }
  return {
    port: settings.PORT,
    hostname: listenAddress(settings.CONSOLE_HOSTNAME, settings.HOSTNAME),
    dataDir,
    database: settings.DATABASE_URL
      ? { dialect: 'postgres', url: settings.DATABASE_URL }
      : { dialect: 'sqlite', file: path.join(dataDir, 'console.sqlite') },
    redisUrl: settings.REDIS_URL ?? null,
    logLevel: settings.LOG_LEVEL,
    serviceLogLevel: settings.SERVICE_LOG_LEVEL,
    consoleUrl,
    trustedOrigins: [...new Set([consoleUrl.origin, ...loopbackOrigins])],
    secureCookies: consoleUrl.protocol === 'https:',
    trustedProxies,
    metricsToken: settings.METRICS_TOKEN ?? null,
    http: {
      headersTimeoutMs: settings.CONSOLE_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: settings.CONSOLE_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: settings.CONSOLE_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: settings.CONSOLE_MAX_CONNECTIONS,
    },
    upstreams,
    auth: {
      secret: settings.BETTER_AUTH_SECRET,
      sessionTtlSeconds: Math.round(settings.CONSOLE_SESSION_TTL_HOURS * 3600),
      signInRateLimit: settings.CONSOLE_SIGN_IN_RATE_LIMIT,
      requireSecondFactor: settings.CONSOLE_REQUIRE_2FA,
      requireSecondFactorForSso: settings.CONSOLE_REQUIRE_2FA_FOR_SSO,
      stepUpSeconds: settings.CONSOLE_STEP_UP_MINUTES * 60,
      firstAdmin: {
        email: (settings.CONSOLE_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL).toLowerCase(),
        password: settings.CONSOLE_ADMIN_PASSWORD,
      },
    },
    oidc: oidcConfig(settings),
    jobs: { concurrency: settings.CONSOLE_JOB_CONCURRENCY, tokenKey: settings.CONSOLE_JOB_TOKEN_KEY },
  };
}

type Settings = z.infer<typeof envSchema>;

/**
 * Per environment: its own key (USER_GROUP_API_KEY_<ENV>), else the single USER_GROUP_API_KEY when
 * USER_GROUP_API_ENVIRONMENT names it; its own URL (USER_GROUP_API_URL_<ENV>), else the shared one.
 */
function upstreamsOf(settings: Settings): Record<Environment, UpstreamConfig | null> {
  const keys: Record<Environment, string | undefined> = {
    Customer: settings.USER_GROUP_API_KEY_CUSTOMER,
    Testing: settings.USER_GROUP_API_KEY_TESTING,
  };
  keys[settings.USER_GROUP_API_ENVIRONMENT] ??= settings.USER_GROUP_API_KEY;
  const urls: Record<Environment, string | undefined> = {
    Customer: settings.USER_GROUP_API_URL_CUSTOMER ?? settings.USER_GROUP_API_URL,
    Testing: settings.USER_GROUP_API_URL_TESTING ?? settings.USER_GROUP_API_URL,
  };
  const paces: Record<Environment, number | null | undefined> = {
    Customer: settings.USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER,
    Testing: settings.USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING,
  };
  const upstream = (environment: Environment): UpstreamConfig | null => {
    const apiKey = keys[environment];
    const baseUrl = urls[environment];
    const pace =
      paces[environment] !== undefined ? paces[environment] : settings.USER_GROUP_API_REQUESTS_PER_MINUTE;
    return apiKey && baseUrl
      ? {
          baseUrl,
          apiKey,
          timeoutMs: settings.USER_GROUP_API_TIMEOUT_MS,
          requestsPerMinute: pace === undefined ? DEFAULT_REQUESTS_PER_MINUTE : pace,
        }
      : null;
  };
  return { Customer: upstream('Customer'), Testing: upstream('Testing') };
}

function oidcConfig(settings: Settings): OidcConfig | null {
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

/**
 * Where the console listens. Operators sign in, so the console may listen beyond loopback, but
 * only when asked to: CONSOLE_HOSTNAME, else HOSTNAME, else 127.0.0.1. HOSTNAME is ignored when it
 * is just this machine's name, which Docker (the container id) and some shells export on their
 * own: that is not a choice to listen on the network. Use 0.0.0.0 for every interface.
 */
export function listenAddress(
  consoleHostname: string | undefined,
  hostname: string | undefined,
  machineName: string = os.hostname(),
): string {
  if (consoleHostname) return consoleHostname;
  if (hostname && hostname !== machineName) return hostname;
  return '127.0.0.1';
}

let cached: ConsoleConfig | undefined;

/** The process's configuration, read on first use (never at import: `next build` runs modules). */
export function consoleConfig(): ConsoleConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
