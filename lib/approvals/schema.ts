/**
 * The approval requests' table and its migration, on the console database (the table's type is
 * lib/db's ApprovalRequestTable). Times are ISO 8601 UTC strings with milliseconds, so text order is
 * time order on both dialects.
 */
import type { Kysely, Migration } from 'kysely';
import { backfillSponsors } from '@/lib/approvals/sponsors';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';

const migrations: Record<string, Migration> = {
  '2026-11-27-001-approval-request': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('approval_request')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('environment', 'text')
        .addColumn('route_name', 'text', (column) => column.notNull())
        .addColumn('method', 'text', (column) => column.notNull())
        .addColumn('path', 'text', (column) => column.notNull())
        .addColumn('permission', 'text', (column) => column.notNull())
        .addColumn('subject', 'text', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('sealed_secret', 'text')
        .addColumn('reason', 'text', (column) => column.notNull())
        .addColumn('requested_by', 'text', (column) => column.notNull())
        .addColumn('requested_by_email', 'text', (column) => column.notNull())
        .addColumn('requested_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('decided_by', 'text')
        .addColumn('decided_by_email', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('decision_reason', 'text')
        .addColumn('outcome', 'text')
        .execute();
      await db.schema
        .createIndex('approval_request_state')
        .on('approval_request')
        .columns(['state', 'expires_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('approval_request').execute();
    },
  },
  // Who brought each operator in or raised them (lib/approvals/sponsors.ts): one row per invitation,
  // role given or enabling, so that nobody approves the requests of whoever made their account.
  '2026-11-28-001-operator-sponsor': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('operator_sponsor')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('sponsor_id', 'text', (column) => column.notNull())
        .addColumn('how', 'text', (column) => column.notNull())
        .addColumn('at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('operator_sponsor_user')
        .on('operator_sponsor')
        .columns(['user_id', 'sponsor_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('operator_sponsor').execute();
    },
  },
  // The operators already there: who brought them in, from their links and the audit log, so that
  // one invited before the upgrade does not approve for whoever invited them (best effort).
  '2026-11-28-002-operator-sponsor-backfill': {
    up: backfillSponsors,
  },
};

export function migrateApprovals(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'approvals', migrations);
}
