/**
 * Jobs an older console paused by itself keep, in paused_reason, the message of the error that
 * paused them; this console stores a code from pause-reasons.ts and puts it into words when shown.
 * Converted once, by what those messages said: a refused key, a missing key (lib/server's
 * environment_not_configured), or any other failure to set up the environment's client. No way
 * back: the messages were the problem, and an older console shows a code as it shows any text.
 *
 * Its own bookkeeping table (jobs_pause_reasons_migration), apart from schema.ts's migrations; to
 * be called after migrateJobs (which creates bulk_job), as lib/server/migrate.ts calls the others.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';

const migrations: Record<string, Migration> = {
  '2026-11-24-001-pause-reason-codes': {
    async up(db: Kysely<unknown>) {
      await sql`
        update bulk_job set paused_reason = case
          when paused_reason like '%refused%API key%' then 'api_key_refused'
          when paused_reason like '%not configured%' then 'environment_not_configured'
          else 'environment_unusable'
        end
        where paused_reason is not null
          and paused_reason not in ('api_key_refused', 'environment_not_configured', 'environment_unusable')
      `.execute(db);
    },
  },
};

/** Idempotent: applies what is missing. The same SQL serves SQLite and PostgreSQL. */
export function migratePauseReasons(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'jobs_pause_reasons', migrations);
}
