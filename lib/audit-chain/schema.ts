/**
 * The audit chain's tables (their types: lib/db's AuditSealTable and AuditChainOpenTable). A seal's
 * id is written by the sealer (the previous one's plus one), never numbered by the database: the
 * primary key is what lets one console at a time add the next seal.
 */
import { type Kysely, sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { type ConsoleMigrations, migrateModule } from '@/lib/db/migrate';

const migrations: ConsoleMigrations = {
  '2026-11-27-001-audit-seal': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_seal')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .addColumn('after_id', 'integer', (column) => column.notNull())
        .addColumn('through_id', 'integer', (column) => column.notNull())
        .addColumn('entry_count', 'integer', (column) => column.notNull())
        .addColumn('previous_hash', 'text', (column) => column.notNull())
        .addColumn('head_hash', 'text', (column) => column.notNull())
        .addColumn('manifest', 'text', (column) => column.notNull())
        .addColumn('sealed_at', 'text', (column) => column.notNull())
        .addColumn('key_id', 'text', (column) => column.notNull())
        .addColumn('signature', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('audit_chain_open')
        .addColumn('event_id', 'integer', (column) => column.primaryKey())
        .addColumn('content_hash', 'text', (column) => column.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table audit_chain_open`.execute(db);
      await sql`drop table audit_seal`.execute(db);
    },
  },
};

/** Idempotent: applies what is missing, in order. */
export function migrateAuditChain(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'audit_chain', migrations);
}
