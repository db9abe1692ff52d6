import path from 'node:path';
import { z } from 'zod';
import type { ConsoleDatabaseLocation } from '@/lib/db/console-database';
import { unsafeInUrl } from '@/lib/db/pg-pool-config';
import { optional, type ParsedEnv } from './env-values';

/** The console's files and its database. */
export const storageEnv = {
  DATA_DIR: optional(z.string()).transform((value) => value ?? './data'),
  // Checked by shape only: the message must not repeat the value, which holds a password.
  DATABASE_URL: optional(
    z
      .string()
      // A line break at the end (a value read from a file) is no part of it.
      .trim()
      .regex(/^postgres(ql)?:\/\/[^/?#\s]+\/[^/?#\s]+/i, {
        error:
          'DATABASE_URL must be a PostgreSQL URL (postgres:// or postgresql://, a host and a database name), or unset for the SQLite file in DATA_DIR',
      })
      .superRefine((url, context) => {
        const unsafe = unsafeInUrl(url);
        if (unsafe) context.addIssue({ code: 'custom', message: `DATABASE_URL must not hold ${unsafe}` });
      }),
  ),
};

/** Where counts shared by every instance are kept (the sign-in limit, bulk jobs' pace). */
export const redisEnv = {
  // Checked by shape only, as DATABASE_URL: the value may hold a password.
  REDIS_URL: optional(
    z.string().regex(/^rediss?:\/\/\S+$/i, {
      error: 'REDIS_URL must be a redis:// or rediss:// URL, or unset to count rate limits per process',
    }),
  ),
};

/** PostgreSQL when DATABASE_URL is set (several console instances share it), else a file in DATA_DIR. */
export function databaseLocation(
  settings: ParsedEnv<typeof storageEnv>,
  dataDir: string,
): ConsoleDatabaseLocation {
  return settings.DATABASE_URL
    ? { dialect: 'postgres', url: settings.DATABASE_URL }
    : { dialect: 'sqlite', file: path.join(dataDir, 'console.sqlite') };
}

export const dataDirOf = (settings: ParsedEnv<typeof storageEnv>): string => path.resolve(settings.DATA_DIR);
