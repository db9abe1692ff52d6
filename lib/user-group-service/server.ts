/**
 * startUserGroupService: migrate the database, listen on plain node:http, and hand back the base URL
 * and a graceful close (stop accepting, let in-flight requests finish, close the database).
 *
 * Public API (used by the launcher and the e2e tests):
 *   startUserGroupService({ host?, port?, database, encryptionKey?, rateLimit?, logger?, logLevel?,
 *     apiKeyCacheTtlMs?, headersTimeoutMs?, requestTimeoutMs?, keepAliveTimeoutMs?, maxConnections? })
 *     → Promise<{ url, port, server, close() }>
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { createServiceMetrics } from '../metrics/service-metrics';
import {
  checkHttpLimits,
  createLimitedHttpServer,
  DEFAULT_HTTP_LIMITS,
  type HttpLimits,
} from '../node-http/limits';
import { createLimitCounters } from '../rate-limit/counters';
import { redactUrlCredentials } from '../redact-url';
import { createAuthenticator, DEFAULT_API_KEY_CACHE_TTL_MS } from './authenticator';
import { openDatabase } from './database';
import { assertKeyMatchesDatabase, resolveEncryptionKey } from './encryption-key';
import { createLogger } from './logger';
import { migrateToLatest } from './migrations';
import openApi from './openapi.json' with { type: 'json' };
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limiter';
import { createRequestListener, SERVICE_PATHS } from './router';
import { createTokenCrypto } from './token-crypto';
import { createUserGroupStore } from './user-group-store';

/** The node:http server's limits (lib/node-http/limits.ts, shared with the console's server). */
export { DEFAULT_HTTP_LIMITS };

export interface UserGroupServiceOptions extends Partial<HttpLimits> {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** A SQLite file path (created with its directory) or a postgres:// / postgresql:// URL. */
  database: string;
  /** 64 hex characters or base64 of 32 bytes; default env SERVICE_ENCRYPTION_KEY, else `<db>.key`. */
  encryptionKey?: string;
  /** Requests per API key (rate-limiter.ts); default 100/s, burst 200; false turns it off. */
  rateLimit?: RateLimit | false;
  /**
   * Where the rate limit counts: a redis:// or rediss:// URL shares it among every instance using
   * that Redis; default env REDIS_URL, else (or null) per process.
   */
  redisUrl?: string | null;
  logger?: Logger;
  /** pino level when no logger is given; default env LOG_LEVEL, else info. */
  logLevel?: string;
  /**
   * Opens GET /metrics to `Authorization: Bearer <token>` from anywhere (16+ characters); default env
   * METRICS_TOKEN; unset (or null): loopback only.
   */
  metricsToken?: string | null;
  /**
   * How long a known API key is cached (a revocation takes effect within it, on every instance);
   * default and at most 5000.
   */
  apiKeyCacheTtlMs?: number;
  /** What stamps groups, times requests and the key cache, and paces the shutdown: the CLI's or the test's. */
  clock: Clock;
}

export interface RunningUserGroupService {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /** The node:http server, to read its settings; stop it with close(). */
  server: Server;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 10_000;

// Imported, not read from beside this file: the compiled service (dist/, scripts/server-build.mjs)
// is one file in another folder.
const openApiDocument = JSON.stringify(openApi);

export async function startUserGroupService(
  options: UserGroupServiceOptions,
): Promise<RunningUserGroupService> {
  const limits = resolveHttpLimits(options);
  const clock = options.clock;
  const metricsToken =
    options.metricsToken === undefined ? process.env.METRICS_TOKEN || null : options.metricsToken;
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new Error('METRICS_TOKEN must be at least 16 characters');
  }
  const logger = options.logger ?? createLogger(options.logLevel ?? process.env.LOG_LEVEL ?? 'info');
  const database = openDatabase(options.database);
  let crypto: ReturnType<typeof createTokenCrypto>;
  try {
    await migrateToLatest(database.db, database.kind);
    crypto = createTokenCrypto(resolveEncryptionKey(database, options.encryptionKey));
    await assertKeyMatchesDatabase(database, crypto);
  } catch (error) {
    await database.close();
    throw error;
  }

  const redisUrl = options.redisUrl === undefined ? process.env.REDIS_URL || null : options.redisUrl;
  if (redisUrl && !/^rediss?:\/\/\S+$/i.test(redisUrl)) {
    await database.close();
    throw new Error(
      'REDIS_URL must be a redis:// or rediss:// URL, or unset to count the rate limit per process',
    );
  }
  const limitCounters = createLimitCounters({
    redisUrl: options.rateLimit === false ? null : redisUrl,
    namespace: 'user-group-service',
    onRedisError: (message) => logger.warn(message),
  });
  await limitCounters.ready();

  let closing = false;
  let inFlight = 0;
  const listener = createRequestListener({
    store: createUserGroupStore(database, crypto, clock),
    authenticator: createAuthenticator(
      database,
      options.apiKeyCacheTtlMs ?? DEFAULT_API_KEY_CACHE_TTL_MS,
      clock,
    ),
    rateLimiter:
      options.rateLimit === false
        ? null
        : createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, limitCounters),
    logger,
    checkDatabase: async () => {
      await sql`select 1`.execute(database.db);
    },
    metrics: createServiceMetrics(SERVICE_PATHS),
    metricsAccess: { token: metricsToken, trustedProxies: null },
    openApiDocument,
    isClosing: () => closing,
    clock,
  });

  const settled = () => {
    inFlight--;
  };
  const server = createLimitedHttpServer(limits, (request: IncomingMessage, response: ServerResponse) => {
    inFlight++;
    listener(request, response).then(settled, settled);
  });

  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await limitCounters.close();
    await database.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  logger.info(
    {
      url,
      port,
      database: redactUrlCredentials(options.database),
      rate_limit:
        options.rateLimit === false ? 'off' : limitCounters.shared ? 'shared (Redis)' : 'per process',
    },
    'listening',
  );

  let closed: Promise<void> | undefined;
  async function shutDown(): Promise<void> {
    closing = true;
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Idle keep-alive connections are closed at once; busy ones once their response is out.
    const deadline = clock.monotonic() + SHUTDOWN_GRACE_MS;
    const sweep = setInterval(() => {
      server.closeIdleConnections();
      if (clock.monotonic() > deadline) server.closeAllConnections();
    }, 10);
    server.closeIdleConnections();
    try {
      await serverClosed;
      // A handler can outlive its connection (a client that hung up): let it finish its writes.
      while (inFlight > 0 && clock.monotonic() < deadline) await clock.sleep(10);
    } finally {
      clearInterval(sweep);
    }
    if (inFlight > 0)
      logger.warn({ in_flight: inFlight }, 'closing the database with requests still running');
    await limitCounters.close();
    await database.close();
    logger.info({ url }, 'closed');
  }

  return {
    url,
    port,
    server,
    close: () => {
      closed ??= shutDown();
      return closed;
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The options' HTTP limits over the defaults, checked before anything is opened. */
function resolveHttpLimits(options: UserGroupServiceOptions): HttpLimits {
  const limits: HttpLimits = {
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HTTP_LIMITS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_HTTP_LIMITS.requestTimeoutMs,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
    maxConnections: options.maxConnections ?? DEFAULT_HTTP_LIMITS.maxConnections,
  };
  checkHttpLimits(limits);
  return limits;
}
