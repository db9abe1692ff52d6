import 'server-only';
import { z } from 'zod';

/**
 * The console's server configuration, parsed once from the environment. The launcher
 * (lib/launcher/start.ts) fills USER_GROUP_API_URL and USER_GROUP_API_KEY for the embedded default.
 */
const envSchema = z.object({
  USER_GROUP_API_URL: z.url({ protocol: /^https?$/, error: 'USER_GROUP_API_URL must be an http(s) URL' }),
  USER_GROUP_API_KEY: z.string().min(1, { error: 'USER_GROUP_API_KEY is not set' }),
  USER_GROUP_API_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ConsoleConfig = {
  upstream: { baseUrl: string; apiKey: string; timeoutMs: number };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
};

let cached: ConsoleConfig | undefined;

/** Read lazily (not at import) so `next build` never needs the runtime environment. */
export function consoleConfig(): ConsoleConfig {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    // Names the variables only; their values may be secret.
    const problems = parsed.error.issues.map((issue) => issue.message).join('; ');
    throw new ConsoleConfigError(`The console is not configured: ${problems}. Start it with \`npm start\`.`);
  }
  const env = parsed.data;
  cached = {
    upstream: {
      baseUrl: env.USER_GROUP_API_URL,
      apiKey: env.USER_GROUP_API_KEY,
      timeoutMs: env.USER_GROUP_API_TIMEOUT_MS,
    },
    logLevel: env.LOG_LEVEL,
  };
  return cached;
}

export class ConsoleConfigError extends Error {
  override name = 'ConsoleConfigError';
}
