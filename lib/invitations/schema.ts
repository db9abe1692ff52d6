/**
 * The invitations' table and its migration, on the console database (the table's type is lib/db's
 * InvitationTable). An invitation is how an operator an admin added sets their own password: the
 * admin is shown a one-time link once, and only the SHA-256 of its secret is kept here. Times are
 * ISO 8601 UTC strings with milliseconds, so text order is time order on both dialects.
 */
import type { Kysely, Migration } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';

const migrations: Record<string, Migration> = {
  '2026-11-25-001-operator-invitation': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('operator_invitation')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('user_id', 'text', (column) => column.notNull())
        // Hex SHA-256 of the link's secret; the secret itself is never stored.
        .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('created_by', 'text')
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('used_at', 'text')
        .addColumn('voided_at', 'text')
        .execute();
      await db.schema
        .createIndex('operator_invitation_user')
        .on('operator_invitation')
        .columns(['user_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('operator_invitation').execute();
    },
  },
};

export function migrateInvitations(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'invitations', migrations);
}
