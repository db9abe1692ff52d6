/**
 * What a bulk job was made from (a file of groups, pasted tokens, a file of tokens, groups chosen in
 * the directory), kept on the job: its page words the advice by it ("fix the tokens", not "fix the
 * file"), and a rotation made from tokens is read only by those who may rotate, since each of its
 * rows says whose a token is (a look-up, as Identify's). Older jobs have none: a rotation of unknown
 * origin is treated as made from tokens (refused rather than shown).
 *
 * Its own bookkeeping table (jobs_input_migration), apart from schema.ts's; to be called after
 * migrateJobs (which creates bulk_job), as lib/server/migrate.ts calls the others. The index on
 * (job, line, row) serves the job's rows in file order, paged by keyset (lib/jobs/job-rows.ts).
 */
import { type Kysely, type Migration, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';
import type { JobInput } from '@/lib/jobs/contract';
import { can, type Role } from '@/lib/roles';
import type { BulkJobTable, JobTables } from './schema';

/** The jobs' tables with the column this module adds. */
type InputTables = Omit<JobTables, 'bulk_job'> & {
  bulk_job: BulkJobTable & { input: JobInput | null };
};

export function inputDb(db: ConsoleDb): Kysely<InputTables> {
  return db.withTables<InputTables>() as unknown as Kysely<InputTables>;
}

const migrations: Record<string, Migration> = {
  '2026-11-28-001-job-input': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('bulk_job').addColumn('input', 'text').execute();
      await db.schema
        .createIndex('bulk_job_row_line')
        .on('bulk_job_row')
        .columns(['job_id', 'source_line', 'row_number'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index bulk_job_row_line`.execute(db);
      await sql`alter table bulk_job drop column input`.execute(db);
    },
  },
};

/** Idempotent: applies what is missing. The same DDL serves SQLite and PostgreSQL. */
export function migrateJobInput(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'jobs_input', migrations);
}

/** What the job was made from; null for a job made before it was kept (or outside the routes). */
export async function jobInputOf(db: ConsoleDb, jobId: string): Promise<JobInput | null> {
  const row = await inputDb(db)
    .selectFrom('bulk_job')
    .select('input')
    .where('id', '=', jobId)
    .executeTakeFirst();
  return row?.input ?? null;
}

/**
 * Whether a job's rows say whose a pasted token is: a rotation not made from groups chosen in the
 * directory (of unknown origin too, to be safe).
 */
const namesTokensGroups = (kind: BulkJobTable['kind'], input: JobInput | null) =>
  kind === 'rotate' && input !== 'directory';

/**
 * Who may read a job (its page, progress, rows, preview and result): anyone signed in, except a
 * rotation made from tokens, which is for those who may rotate. Answers why not, or null.
 */
export function jobReadRefusal(role: Role | null, kind: BulkJobTable['kind'], input: JobInput | null) {
  if (!namesTokensGroups(kind, input) || can(role, 'user-groups:rotate')) return null;
  return 'This rotation was made from tokens, and its rows say whose each token is: only those who may rotate tokens can read it. Ask an admin of the console.';
}
