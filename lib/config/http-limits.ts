import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@/lib/node-http/limits';
import { ConfigError, type ParsedEnv, positiveInteger } from './env-values';

/**
 * The console's own server (lib/launcher/console-http-server.ts) takes the service's limits, but a
 * whole request may take 2 minutes: a bulk job's body is up to 12 MiB (100 KB/s).
 */
export const DEFAULT_CONSOLE_HTTP_LIMITS: HttpLimits = { ...DEFAULT_HTTP_LIMITS, requestTimeoutMs: 120_000 };

/** The limits of the console's own node:http server against slow, idle or too many clients. */
export const httpLimitsEnv = {
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
};

export function httpLimitsOf(settings: ParsedEnv<typeof httpLimitsEnv>): HttpLimits {
  // Node refuses a headers timeout longer than the request timeout.
  if (settings.CONSOLE_HEADERS_TIMEOUT_MS > settings.CONSOLE_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('CONSOLE_HEADERS_TIMEOUT_MS must not exceed CONSOLE_REQUEST_TIMEOUT_MS.');
  }
  return {
    headersTimeoutMs: settings.CONSOLE_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: settings.CONSOLE_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: settings.CONSOLE_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: settings.CONSOLE_MAX_CONNECTIONS,
  };
}
