import path from 'node:path';
import { z } from 'zod';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
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

export function launcherSettings(env: NodeJS.ProcessEnv = process.env): LauncherSettings {
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
  // Until operators sign in, whoever reaches the console can read every token: loopback only.
  let hostname = settings.HOSTNAME ?? '127.0.0.1';
  if (!LOOPBACK.has(hostname)) {
    process.stderr.write(`[console] HOSTNAME=${hostname} ignored: the console listens on 127.0.0.1 only.\n`);
    hostname = '127.0.0.1';
  }
  return {
    port: settings.PORT,
    hostname,
    displayHost: hostname === '::1' ? '[::1]' : hostname === '127.0.0.1' ? 'localhost' : hostname,
    dataDir: path.resolve(settings.DATA_DIR),
    serviceLogLevel: settings.SERVICE_LOG_LEVEL,
    upstream:
      settings.USER_GROUP_API_URL && settings.USER_GROUP_API_KEY
        ? { url: settings.USER_GROUP_API_URL, apiKey: settings.USER_GROUP_API_KEY, close: async () => {} }
        : null,
  };
}
