import { z } from 'zod';
import { optional, type ParsedEnv } from './env-values';

export interface JobsConfig {
  /** Requests in flight per job. */
  concurrency: number;
  /** The key sealing jobs' tokens at rest; unset: a key file under DATA_DIR. */
  tokenKey: string | undefined;
}

/** Bulk jobs: how many requests each keeps in flight, and the key sealing their tokens. */
export const jobsEnv = {
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
};

export const jobsConfig = (settings: ParsedEnv<typeof jobsEnv>): JobsConfig => ({
  concurrency: settings.CONSOLE_JOB_CONCURRENCY,
  tokenKey: settings.CONSOLE_JOB_TOKEN_KEY,
});
