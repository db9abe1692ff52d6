/**
 * The console's configuration, parsed once from the environment with one schema, for the launcher
 * and the Next server alike. Plain module (no `server-only`): the launcher runs it under tsx.
 * Optional groups come back `null` when not configured: `oidc` unless SSO is set up, `upstream`
 * while the launcher has not yet started the embedded service.
 *
 * Each section (its variables, their rules and what they become) is a module beside this one;
 * this one composes them into one schema and one ConsoleConfig.
 *
 * Error messages name variables and rules, never values: values may be secret.
 */
import { z } from 'zod';
import type { ConsoleDatabaseLocation } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { HttpLimits } from '@/lib/node-http/limits';
import { type ApprovalsConfig, approvalsConfig, approvalsEnv } from './approvals';
import { type AuditConfig, auditConfig, auditEnv } from './audit';
import { type AuditStreamConfig, auditStreamConfig, auditStreamEnv } from './audit-stream';
import { type AuthConfig, authConfig, firstAdminEnv, sessionEnv } from './auth';
import { accessEnv, consoleAddress, consoleUrlEnv, trustedProxiesOf } from './console-address';
import { ConfigError } from './env-values';
import { httpLimitsEnv, httpLimitsOf } from './http-limits';
import { type JobsConfig, jobsConfig, jobsEnv } from './jobs';
import { listenAddress, listenEnv } from './listen-address';
import { type MailConfig, mailConfig, mailEnv } from './mail';
import { type ScimConfig, scimConfig, scimEnv } from './scim';
import { type OidcConfig, oidcConfig, ssoEnv } from './sso';
import { databaseLocation, dataDirOf, redisEnv, storageEnv } from './storage';
import type { TrustedProxies } from './trusted-proxies';
import { type UpstreamConfig, upstreamEnv, upstreamsConfig } from './upstreams';

export { ConfigError } from './env-values';
export { DEFAULT_CONSOLE_HTTP_LIMITS } from './http-limits';
export { listenAddress } from './listen-address';
export type { MailConfig } from './mail';
export type { OidcConfig } from './sso';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof logLevels)[number];

const logEnv = {
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SERVICE_LOG_LEVEL: z.enum(logLevels).default('warn'),
};

// The sections in the order their problems are listed when several variables are wrong.
const envSchema = z.object({
  ...listenEnv,
  ...storageEnv,
  ...consoleUrlEnv,
  ...redisEnv,
  ...logEnv,
  ...upstreamEnv,
  ...jobsEnv,
  ...auditEnv,
  ...auditStreamEnv,
  ...sessionEnv,
  ...accessEnv,
  ...httpLimitsEnv,
  ...firstAdminEnv,
  ...ssoEnv,
  ...scimEnv,
  ...mailEnv,
  ...approvalsEnv,
});

/** Every variable the console's configuration reads (`.env.example` lists each: env-example.test.ts). */
export const configVariables: readonly string[] = Object.keys(envSchema.shape);

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
  auth: AuthConfig;
  oidc: OidcConfig | null;
  /** Invitations by email (SMTP_URL); null: links are only shown to the admin. */
  mail: MailConfig | null;
  jobs: JobsConfig;
  audit: AuditConfig;
  /** The audit log's stream to a SIEM (AUDIT_STREAM_URL); null: not streamed. */
  auditStream: AuditStreamConfig | null;
  /** SCIM provisioning; null (off, its paths 404) unless SCIM_TOKEN is set. */
  scim: ScimConfig | null;
  /** Two-person approval of the actions CONSOLE_REQUIRE_APPROVAL names (lib/approvals). */
  approvals: ApprovalsConfig;
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
  const dataDir = dataDirOf(settings);
  // Each section refuses what it cannot use, in this order: the first refusal is the one reported.
  const address = consoleAddress(settings);
  const trustedProxies = trustedProxiesOf(settings);
  const auth = authConfig(settings);
  const http = httpLimitsOf(settings);
  const upstreams = upstreamsConfig(settings);
  const oidc = oidcConfig(settings);
  const mail = mailConfig(settings);
  return {
    port: settings.PORT,
    hostname: listenAddress(settings.CONSOLE_HOSTNAME, settings.HOSTNAME),
    dataDir,
    database: databaseLocation(settings, dataDir),
    redisUrl: settings.REDIS_URL ?? null,
    logLevel: settings.LOG_LEVEL,
    serviceLogLevel: settings.SERVICE_LOG_LEVEL,
    ...address,
    trustedProxies,
    metricsToken: settings.METRICS_TOKEN ?? null,
    http,
    upstreams,
    auth,
    oidc,
    mail,
    jobs: jobsConfig(settings),
    audit: auditConfig(settings),
    auditStream: auditStreamConfig(settings),
    scim: scimConfig(settings),
    approvals: approvalsConfig(settings),
  };
}

let cached: ConsoleConfig | undefined;

/** The process's configuration, read on first use (never at import: `next build` runs modules). */
export function consoleConfig(): ConsoleConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
