import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  CONSOLE_HOSTNAME: z.string().min(1).optional(),
  HOSTNAME: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  USER_GROUP_API_URL: z
    .url({ protocol: /^https?$/, error: 'USER_GROUP_API_URL must be an http(s) URL' })
    .optional(),
  USER_GROUP_API_KEY: z.string().min(1).optional(),
  SERVICE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('warn'),
});

export interface Upstream {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface LauncherSettings {
  port: number;
  hostname: string;
  displayHost: string;
  dataDir: string;
  serviceLogLevel: z.infer<typeof envSchema>['SERVICE_LOG_LEVEL'];
  /** Set when the console talks to an external server instead of the embedded one. */
  upstream: Upstream | null;
}

export function launcherSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): LauncherSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  }
  const settings = parsed.data;
  if (settings.USER_GROUP_API_URL && !settings.USER_GROUP_API_KEY) {
    throw new Error('USER_GROUP_API_URL is set but USER_GROUP_API_KEY is not: the console needs both.');
  }
  const hostname = listenAddress(settings.CONSOLE_HOSTNAME, settings.HOSTNAME);
  return {
    port: settings.PORT,
    hostname,
    displayHost:
      hostname === '::1'
        ? '[::1]'
        : hostname === '127.0.0.1' || hostname === '0.0.0.0'
          ? 'localhost'
          : hostname,
    dataDir: path.resolve(settings.DATA_DIR),
    serviceLogLevel: settings.SERVICE_LOG_LEVEL,
    upstream:
      settings.USER_GROUP_API_URL && settings.USER_GROUP_API_KEY
        ? { url: settings.USER_GROUP_API_URL, apiKey: settings.USER_GROUP_API_KEY, close: async () => {} }
        : null,
  };
}

/**
 * Where `next start` listens. Operators sign in, so the console may listen beyond loopback, but
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
