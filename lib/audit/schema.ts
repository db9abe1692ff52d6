/**
 * The audit log's table's migrations, on the console database (the table's type
 * is lib/db's AuditEventTable). Times are ISO 8601 UTC strings with milliseconds, so text order
 * is time order.
 */
import { type Kysely, sql } from 'kysely';
import { migrateAuditStream } from '@/lib/audit-stream/schema';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { autoIncrementId, type ConsoleMigrations, migrateModule } from '@/lib/db/migrate';

const migrations: ConsoleMigrations = (dialect) => ({
  '2026-11-21-001-audit-event': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_event')
        .addColumn('id', ...autoIncrementId(dialect))
        .addColumn('at', 'text', (column) => column.notNull())
        .addColumn('operator_id', 'text')
        .addColumn('operator_email', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('user_group_id', 'text')
        .addColumn('user_group_name', 'text')
        .addColumn('outcome', 'text', (column) => column.notNull())
        .addColumn('request_id', 'text', (column) => column.notNull())
        .addColumn('token_fingerprint', 'text')
        .addColumn('previous_token_fingerprint', 'text')
        .addColumn('detail', 'text')
        .execute();
      await db.schema.createIndex('audit_event_at').on('audit_event').column('at').execute();
      await db.schema
        .createIndex('audit_event_group')
        .on('audit_event')
        .columns(['user_group_id', 'action', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_event_operator')
        .on('audit_event')
        .column('operator_email')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table audit_event`.execute(db);
    },
  },
  '2026-11-23-002-audit-environment': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('audit_event').addColumn('environment', 'text').execute();
      // Entries written before environments were known were all the single key's (Customer).
      await sql`update audit_event set environment = 'Customer' where action in ('get-or-create', 'rotate', 'delete')`.execute(
        db,
      );
      await db.schema
        .createIndex('audit_event_environment_group')
        .on('audit_event')
        .columns(['environment', 'user_group_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index audit_event_environment_group`.execute(db);
      await sql`alter table audit_event drop column environment`.execute(db);
    },
  },
  '2026-11-24-001-audit-token-fingerprints': {
    // "Whose token is this?" finds when a token was issued and what ended it, by fingerprint.
    async up(db: Kysely<unknown>) {
      await sql`create index audit_event_token_fingerprint on audit_event (token_fingerprint) where token_fingerprint is not null`.execute(
        db,
      );
      await sql`create index audit_event_previous_token_fingerprint on audit_event (previous_token_fingerprint) where previous_token_fingerprint is not null`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index audit_event_previous_token_fingerprint`.execute(db);
      await sql`drop index audit_event_token_fingerprint`.execute(db);
    },
  },
  // The audit page folds the entries of one request (a bulk job's rows share its id) into one line.
  '2026-11-24-002-audit-request': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('audit_event_request')
        .on('audit_event')
        .columns(['request_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index audit_event_request`.execute(db);
    },
  },
  // A year of entries: every filter of the page is walked newest first on an index of its own
  // (lib/audit/query.ts), and the person's index ends in id on PostgreSQL too (SQLite's does anyway).
  '2026-11-27-001-audit-filters-by-id': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('audit_event_action_id')
        .on('audit_event')
        .columns(['action', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_event_operator_email_id')
        .on('audit_event')
        .columns(['operator_email', 'id'])
        .execute();
      await sql`drop index audit_event_operator`.execute(db);
      await db.schema
        .createIndex('audit_event_group_id')
        .on('audit_event')
        .columns(['user_group_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index audit_event_group_id`.execute(db);
      await db.schema
        .createIndex('audit_event_operator')
        .on('audit_event')
        .column('operator_email')
        .execute();
      await sql`drop index audit_event_operator_email_id`.execute(db);
      await sql`drop index audit_event_action_id`.execute(db);
    },
  },
  // An environment alone (2M entries of ten million) and a person with an action (none at all, for
  // a person who never rotates) walked the wrong index for seconds at ten million entries.
  '2026-11-27-002-audit-combined-filters': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('audit_event_environment_id')
        .on('audit_event')
        .columns(['environment', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_event_operator_action_id')
        .on('audit_event')
        .columns(['operator_email', 'action', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index audit_event_operator_action_id`.execute(db);
      await sql`drop index audit_event_environment_id`.execute(db);
    },
  },
});

/**
 * Idempotent: applies what is missing, in order. The stream's outbox too (lib/audit-stream): every
 * write of the log may write its outbox row in the same transaction, so wherever the log is, it is.
 */
export async function migrateAuditLog(database: ConsoleDatabase): Promise<void> {
  await migrateModule(database, 'audit', migrations);
  await migrateAuditStream(database);
}
