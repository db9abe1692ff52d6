import type { Logger } from 'pino';
import 'server-only';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { approversShort, startApprovalExpiry } from '@/lib/approvals/server';
import { type AuditLog, createAuditLog } from '@/lib/audit/audit-log';
import { startAuditRetention } from '@/lib/audit/retention';
import type { ChainReport } from '@/lib/audit-chain/contract';
import { auditSigningKey } from '@/lib/audit-chain/signing-key';
import { startAuditChain } from '@/lib/audit-chain/start';
import { streamedThrough } from '@/lib/audit-stream/status';
import { startAuditStreamer } from '@/lib/audit-stream/streamer';
import type { SignInMethod } from '@/lib/auth/options';
import { SignInLimiter } from '@/lib/auth/sign-in-limiter';
import { type Clock, realClock } from '@/lib/clock';
import { type ConsoleConfig, consoleConfig } from '@/lib/config';
import type { Environment } from '@/lib/environments';
import { createInvitationMailer, type InvitationMailer } from '@/lib/invitations/mail';
import { createJobRunner, type JobRunner } from '@/lib/jobs/runner';
import { createTokenVault, jobTokenKey, type TokenVault } from '@/lib/jobs/vault';
import {
  DRAFT_LOOK_UPS_PER_HOUR,
  IDENTIFY_PER_MINUTE,
  SCIM_REFUSALS_PER_MINUTE,
  SCIM_REQUESTS_PER_MINUTE,
} from '@/lib/limits';
import { type ConsoleMetrics, consoleMetrics, recordUpstreamCall } from '@/lib/metrics/console-metrics';
import { countPasskeys } from '@/lib/passkeys/store';
import { processWide } from '@/lib/process-wide';
import { createLimitCounters } from '@/lib/rate-limit/counters';
import { parseRole, type Role } from '@/lib/roles';
import { signInMethodOf } from '@/lib/sessions/store';
import { createUpstreamProbe, type UpstreamProbe } from '@/lib/upstream-status/server';
import { createUserGroupApi, type UserGroupApi } from '@/lib/user-group-api/client';
import { type ConsoleParts, composeConsole } from './compose';
import { environmentNotConfigured } from './errors';
import { signInRecord } from './frame/sign-in-record';
import { onRecord } from './frame/writer';
import { logger } from './logger';
import { migrateConsoleDatabase } from './migrate';

/**
 * The Next server's console: built once per process on first use (never at import: `next build`
 * loads this module) and handed to pages and route handlers. Only the edges ask for it (the route
 * frame lib/server/frame/frame.ts, pages through lib/server/page-context.ts, the /api/auth and /api/ready
 * routes, instrumentation.ts); everything below them is handed what it uses. The launcher migrates before the
 * server starts; migrating again here is a no-op then, and makes a server started some other way
 * safe too.
 */
export interface ConsoleServer extends ConsoleParts {
  /** The one clock of the server: what stamps or measures time takes it from here (lib/clock.ts). */
  clock: Clock;
  /** The upstream client of an environment (one per process): it alone holds that API key. */
  userGroupApi(environment: Environment): UserGroupApi;
  /** null when CONSOLE_SIGN_IN_RATE_LIMIT is off; counts in Redis when REDIS_URL is set. */
  signInLimiter: SignInLimiter | null;
  /**
   * Bulk jobs: their runner (started with the server; its paces kept in Redis when REDIS_URL is set,
   * shared by every console) and the vault of their tokens.
   */
  jobs: { runner: JobRunner; vault: TokenVault };
  /** How each environment's service answered lately (the header's status): a probe kept a few seconds. */
  upstreamProbe: UpstreamProbe;
  /** The audit log on the console database: every change on record before it happens. */
  auditLog: AuditLog;
  /**
   * The audit log's chain (lib/audit-chain): sealed every few seconds by one console at a time, and
   * verified on request (the audit page's button for admins).
   */
  auditChain: { verify(): Promise<ChainReport> };
  /** The console's Prometheus registry and its counters. */
  metrics: ConsoleMetrics;
  /** The console's log (pino, tokens and keys redacted): one line per request, failures by name. */
  logger: Logger;
  /**
   * Token look-ups per operator, shared through Redis like the sign-in limit: Identify's
   * (IDENTIFY_PER_MINUTE), and a draft rotation's pasted tokens (DRAFT_LOOK_UPS_PER_HOUR).
   */
  identifyLimit: RateLimiterAbstract;
  draftLookUpLimit: RateLimiterAbstract;
  /** SCIM requests with the right token (lib/scim/route.ts), and refused ones per client address. */
  scimLimit: RateLimiterAbstract;
  scimRefusalLimit: RateLimiterAbstract;
  /** Emails invitation links when SMTP_URL is set; null: the admin passes the link on alone. */
  invitationMailer: InvitationMailer | null;
}

/**
 * The process's one console server, and the clock it is built on: the process's, unless a test
 * hands in its own before the first use. Process-wide (lib/process-wide.ts): Next loads this module
 * once for instrumentation, once for the route handlers and once for the pages, and all three must
 * share one database (one SQLite writer), one audit log and one of each background loop.
 */
const processServer = processWide(
  'console-server',
  (): { server?: Promise<ConsoleServer>; clock: Clock } => ({ clock: realClock }),
);

/** Builds the server on `clock` (a test's testClock, lib/testing/route-harness.ts): before its first use. */
export function buildConsoleOnClock(clock: Clock): void {
  if (processServer.server) throw new Error('the console server is already built on its clock');
  processServer.clock = clock;
}

export function consoleServer(): Promise<ConsoleServer> {
  processServer.server ??= startConsoleServer(processServer.clock).catch((error: unknown) => {
    processServer.server = undefined;
    throw error;
  });
  return processServer.server;
}

const authLogger = logger.child({ component: 'auth' });

async function startConsoleServer(clock: Clock): Promise<ConsoleServer> {
  const config = consoleConfig();
  logger.level = config.logLevel;
  const authLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string) =>
    authLogger[level]({}, message);
  // The one audit writer, fail-closed, built on the database composeConsole opens: sign-ins too.
  const metrics = consoleMetrics();
  const built: { auditLog?: AuditLog } = {};
  const parts = composeConsole(config, authLog, clock, (database) => {
    built.auditLog = createAuditLog(database.db, { clock, metrics, logger });
    return signInRecord({ database, auditLog: built.auditLog, clock, log: authLog });
  });
  await migrateConsoleDatabase(parts.auth, parts.database);
  // SQLite's checkpoints and background batches on a thread of their own (lib/db/write-thread).
  parts.database.startWriteThread(clock, (error) =>
    logger.warn(
      { err: { message: (error as Error)?.message } },
      'the SQLite write thread failed: the main connection checkpoints again',
    ),
  );
  // Each call is counted by environment, operation and outcome; the status probe's calls apart
  // (operation `probe`), so that its expected refusals do not read as failed rotations.
  const clientsOf = (operation: 'call' | 'probe') => {
    const clients = new Map<Environment, UserGroupApi>();
    return (environment: Environment) => {
      let client = clients.get(environment);
      if (!client) {
        client = createUserGroupApi({
          ...upstreamOf(parts.config, environment),
          clock,
          observe: (call) =>
            recordUpstreamCall(
              environment,
              operation === 'probe' ? 'probe' : call.operation,
              call.outcome,
              call.seconds,
            ),
        });
        clients.set(environment, client);
      }
      return client;
    };
  };
  const userGroupApi = clientsOf('call');
  const { signInRateLimit } = config.auth;
  // In Redis whenever there is one: the bulk jobs' pace is shared even with the sign-in limit off.
  const limitCounters = createLimitCounters({
    redisUrl: config.redisUrl,
    namespace: 'user-group-console',
    onRedisError: (message) => logger.warn({}, message),
  });
  await limitCounters.ready();
  const signInLimiter = signInRateLimit ? new SignInLimiter(signInRateLimit, limitCounters) : null;
  const vault = createTokenVault(jobTokenKey(config.dataDir, config.jobs.tokenKey));
  const jobLogger = logger.child({ component: 'jobs' });
  // The one registry, handed down to what counts (the audit log, the runner, the sign-in route).
  const runner = createJobRunner({
    db: parts.database.db,
    vault,
    api: userGroupApi,
    pace: (environment) => config.upstreams[environment]?.requestsPerMinute ?? null,
    paceSlots: limitCounters,
    concurrency: config.jobs.concurrency,
    log: (level, fields, message) => jobLogger[level](fields, message),
    metrics,
    clock,
  });
  // Jobs a restart interrupted resume on their own, without waiting for a person to look.
  runner.start();
  const upstreamProbe = createUpstreamProbe(clientsOf('probe'), clock);
  const { auditLog } = built;
  if (!auditLog) throw new Error('composeConsole built no audit log');
  // The seals' key lives outside the database (AUDIT_SIGNING_KEY, or DATA_DIR like the other secrets).
  const auditSigner = auditSigningKey(config.dataDir, config.audit.signingKey);
  const chainLogger = logger.child({ component: 'audit-chain' });
  const auditChain = startAuditChain({
    db: parts.database.db,
    signer: auditSigner,
    clock,
    dataDir: config.dataDir,
    metrics,
    log: (level, fields, message) => chainLogger[level](fields, message),
    prunes: config.audit.retentionDays !== null,
  });
  if (config.audit.retentionDays !== null) {
    const retentionLogger = logger.child({ component: 'audit-retention' });
    startAuditRetention({
      database: parts.database,
      clock,
      auditLog,
      days: config.audit.retentionDays,
      // Nothing is pruned that the stream has yet to deliver (null: no stream, no limit).
      holds: [streamedThrough],
      log: (message, fields) => retentionLogger.info(fields, message),
    });
  }
  const streamLogger = logger.child({ component: 'audit-stream' });
  // AUDIT_STREAM_URL unset: nothing starts, and the stream other consoles may run is left alone.
  startAuditStreamer({
    db: parts.database.db,
    config: config.auditStream,
    clock,
    metrics,
    log: (level, fields, message) => streamLogger[level](fields, message),
  });
  if (config.approvals.rules.length > 0) {
    const approvalLogger = logger.child({ component: 'approvals' });
    startApprovalExpiry({
      db: parts.database.db,
      // Through the frame's writer, like every entry outside a route: the fail-closed log.
      record: onRecord({ auditLog }, 'approval-expiry').outcome,
      log: (message, fields) => approvalLogger.warn(fields, message),
      clock,
    });
    const short = await approversShort(parts.database.db, config.approvals.rules);
    if (short.length > 0)
      approvalLogger.warn(
        { actions: short },
        'fewer than two operators able to approve: CONSOLE_REQUIRE_APPROVAL names actions nobody can get approved',
      );
  }
  // Once per process (lib/process-wide.ts): what the built console's tests count.
  logger.info({ pid: process.pid, database: config.database.dialect }, 'console server started');
  return {
    ...parts,
    clock,
    signInLimiter,
    userGroupApi,
    jobs: { runner, vault },
    upstreamProbe,
    metrics,
    logger,
    auditLog,
    auditChain: { verify: () => auditChain.verify() },
    identifyLimit: limitCounters.window('token-identify', {
      points: IDENTIFY_PER_MINUTE,
      durationSeconds: 60,
    }),
    draftLookUpLimit: limitCounters.window('draft-look-ups', {
      points: DRAFT_LOOK_UPS_PER_HOUR,
      durationSeconds: 3600,
    }),
    scimLimit: limitCounters.window('scim', { points: SCIM_REQUESTS_PER_MINUTE, durationSeconds: 60 }),
    scimRefusalLimit: limitCounters.window('scim-refused', {
      points: SCIM_REFUSALS_PER_MINUTE,
      durationSeconds: 60,
    }),
    invitationMailer: config.mail
      ? createInvitationMailer(config.mail, logger.child({ component: 'mail' }), clock)
      : null,
  };
}

function upstreamOf(config: ConsoleConfig, environment: Environment) {
  const upstream = config.upstreams[environment];
  if (!upstream) throw environmentNotConfigured(environment);
  return upstream;
}

export interface Operator {
  id: string;
  email: string;
  name: string;
  /** null when the stored role is not one the console knows: such an operator may do nothing. */
  role: Role | null;
  /** An authenticator app (TOTP) is enrolled. */
  twoFactorEnabled: boolean;
  /** How many passkeys they have: each one is a second factor too (lib/passkeys/store.ts). */
  passkeys: number;
  /** The session of this request (server-side facts: never handed to the browser as is). */
  session: OperatorSession;
}

export interface OperatorSession {
  id: string;
  signInMethod: SignInMethod;
  /**
   * When they last proved who they are, in ms since the epoch: the sign-in (for SSO, when the IdP
   * authenticated them), or a later step-up.
   */
  authenticatedAt: number;
  /**
   * Whether this session has proved a second factor: signed in with a code after the password or
   * with a passkey, or since (a code or a passkey at step-up, or enrolling one). A password or an
   * SSO sign-in alone proves none.
   */
  secondFactorProved: boolean;
}

/** The signed-in operator of a request, or null (no session, expired, or disabled). */
export async function operatorFromHeaders(
  { auth, database }: Pick<ConsoleServer, 'auth' | 'database'>,
  headers: Headers,
): Promise<Operator | null> {
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (!session || session.user.banned) return null;
  const { createdAt, steppedUpAt, signInMethod, secondFactorAt, idpAuthenticatedAt } = session.session;
  // An SSO sign-in is as recent as the IdP's authentication behind it (auth_time), not the session.
  const signedInAt = signInMethod === 'sso' ? timeOf(idpAuthenticatedAt) : timeOf(createdAt);
  return {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    role: parseRole(session.user.role),
    twoFactorEnabled: session.user.twoFactorEnabled === true,
    passkeys: await countPasskeys(database.db, session.user.id),
    session: {
      id: session.session.id,
      signInMethod: signInMethodOf(signInMethod),
      authenticatedAt: Math.max(signedInAt, timeOf(steppedUpAt)),
      secondFactorProved: timeOf(secondFactorAt) > 0,
    },
  };
}

function timeOf(value: Date | string | number | null | undefined): number {
  if (value == null) return 0;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? 0 : time;
}
