/**
 * The audit stream's tables (types: lib/db's AuditStreamTable and AuditOutboxTable): `audit_stream`,
 * a row per stream with its lease, and `audit_outbox`, what is yet to be delivered.
 */
import { type Kysely, sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { autoIncrementId, type ConsoleMigrations, migrateModule } from '@/lib/db/migrate';

const migrations: ConsoleMigrations = (dialect) => ({
  '2026-11-27-001-audit-stream': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_stream')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('delivered', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('last_delivered_at', 'text')
        .addColumn('last_failure', 'text')
        .addColumn('failing_since', 'text')
        .execute();
      await db.schema
        .createTable('audit_outbox')
        .addColumn('id', ...autoIncrementId(dialect))
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('entry_id', 'integer', (column) => column.notNull())
        .addColumn('revision', 'integer', (column) => column.notNull())
        .addColumn('written_at', 'text', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        .execute();
      // The order delivered (delivery.ts), and the lowest entry not yet delivered (status.ts).
      await db.schema
        .createIndex('audit_outbox_entry')
        .on('audit_outbox')
        .columns(['entry_id', 'revision'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table audit_outbox`.execute(db);
      await sql`drop table audit_stream`.execute(db);
    },
  },
});

/** Idempotent: applies what is missing, in order. */
export function migrateAuditStream(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'audit_stream', migrations);
}
