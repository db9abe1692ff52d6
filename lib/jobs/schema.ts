/**
 * Bulk jobs' tables and migrations, on the console database. A job is one environment's batch of
 * get-or-creates (from a CSV) or rotations (from tokens or directory ids); its rows are stored
 * before anything is sent, so a restart resumes where the job stood. Tokens are stored only
 * encrypted (lib/jobs/vault.ts) and erased once the person has downloaded them.
 */
import { type Generated, type Kysely, type Migration, sql } from 'kysely';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';
import type { Environment } from '@/lib/environments';

const jobKinds = ['get-or-create', 'rotate'] as const;
export type JobKind = (typeof jobKinds)[number];

/** draft: previewed, nothing sent yet; running/paused; cancelled or finished: no more rows run. */
const jobStatuses = ['draft', 'running', 'paused', 'cancelled', 'finished'] as const;
type JobStatus = (typeof jobStatuses)[number];

/**
 * invalid: refused by the preview, never sent; pending: to send; sending: its request may be out
 * (after a crash, such a row is uncertain: see the runner); done or failed: its outcome is stored.
 */
const rowStatuses = ['invalid', 'pending', 'sending', 'done', 'failed'] as const;
export type RowStatus = (typeof rowStatuses)[number];

export interface BulkJobTable {
  id: string;
  environment: Environment;
  kind: JobKind;
  status: JobStatus;
  /** What the person uploaded or chose, for the list of jobs. */
  source: string;
  created_at: string;
  created_by: string;
  created_by_id: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Why the job paused by itself (a refused API key, an unconfigured environment), for the person. */
  paused_reason: string | null;
  /** The job's own audit entry, written when it starts and settled when it ends. */
  audit_event_id: number | null;
  /** When the tokens were downloaded and erased; results stay, tokens do not. */
  tokens_erased_at: string | null;
  /** Who downloaded them (their email): the one answer that carried them. */
  tokens_taken_by: string | null;
  /** The console instance running it, until then: one runner per job at a time. */
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export interface BulkJobRowTable {
  job_id: string;
  /** 1-based position in the job. */
  row_number: number;
  /** Where the row came from: the CSV line, or the list's line. */
  source_line: number;
  user_group_id: string | null;
  name: string | null;
  /** JSON text, as validated. */
  mapping: string | null;
  properties: string | null;
  /** For a rotation: the token to rotate, encrypted. */
  input_token: string | null;
  status: RowStatus;
  attempts: Generated<number>;
  /** The preview's findings or the failure, as a person reads them; never a token. */
  error: string | null;
  /** The token the answer carried, encrypted; null once erased. */
  result_token: string | null;
  result_fingerprint: string | null;
  result_name: string | null;
  result_team_id: number | null;
  /** JSON, as the service answered (not secret: the directory shows them too). */
  result_properties: string | null;
  new_user_group: number | null;
  finished_at: string | null;
  /** When the directory learnt this row's outcome: with the row's record; null while it failed to. */
  directory_at: string | null;
}

export type JobTables = {
  bulk_job: BulkJobTable;
  bulk_job_row: BulkJobRowTable;
};

export type JobsDb = Kysely<JobTables>;

/** The console database seen with the jobs' tables. */
export function jobsDb(db: ConsoleDb): JobsDb {
  return db.withTables<JobTables>() as unknown as JobsDb;
}

const migrations: Record<string, Migration> = {
  '2026-11-23-001-bulk-jobs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('bulk_job')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('environment', 'text', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('source', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_by_id', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('paused_reason', 'text')
        .addColumn('audit_event_id', 'integer')
        .addColumn('tokens_erased_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .execute();
      await db.schema
        .createIndex('bulk_job_status')
        .on('bulk_job')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema
        .createIndex('bulk_job_environment')
        .on('bulk_job')
        .columns(['environment', 'created_at'])
        .execute();
      await db.schema
        .createTable('bulk_job_row')
        .addColumn('job_id', 'text', (column) =>
          column.notNull().references('bulk_job.id').onDelete('cascade'),
        )
        .addColumn('row_number', 'integer', (column) => column.notNull())
        .addColumn('source_line', 'integer', (column) => column.notNull())
        .addColumn('user_group_id', 'text')
        .addColumn('name', 'text')
        .addColumn('mapping', 'text')
        .addColumn('properties', 'text')
        .addColumn('input_token', 'text')
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('result_token', 'text')
        .addColumn('result_fingerprint', 'text')
        .addColumn('result_name', 'text')
        .addColumn('result_team_id', 'integer')
        .addColumn('result_properties', 'text')
        .addColumn('new_user_group', 'integer')
        .addColumn('finished_at', 'text')
        .addColumn('directory_at', 'text')
        .addPrimaryKeyConstraint('bulk_job_row_pk', ['job_id', 'row_number'])
        .execute();
      await db.schema
        .createIndex('bulk_job_row_status')
        .on('bulk_job_row')
        .columns(['job_id', 'status', 'row_number'])
        .execute();
      // Rows whose outcome the directory has yet to learn: few at any time, found without a scan.
      await sql`create index bulk_job_row_directory_due on bulk_job_row (job_id, row_number) where status = 'done' and directory_at is null`.execute(
        db,
      );
      await db.schema
        .createIndex('bulk_job_row_finished')
        .on('bulk_job_row')
        .columns(['job_id', 'finished_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table bulk_job_row`.execute(db);
      await sql`drop table bulk_job`.execute(db);
    },
  },
  '2026-11-24-001-tokens-taken-by': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('bulk_job').addColumn('tokens_taken_by', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table bulk_job drop column tokens_taken_by`.execute(db);
    },
  },
};

/** Idempotent: applies what is missing, in order. The same DDL serves SQLite and PostgreSQL. */
export function migrateJobs(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'jobs', migrations);
}
