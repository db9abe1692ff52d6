/**
 * SCIM provisioning's tables on the console database (types in lib/db/console-database.ts). An
 * operator the directory manages has a `scim_user` row beside their better-auth `user` row (same
 * id: the SCIM User's id is the operator's); the directory's groups and their members are kept so
 * that a group's role (SCIM_GROUP_ROLES) reaches each member. Times are ISO 8601 UTC strings.
 */
import type { Kysely, Migration } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { migrateModule } from '@/lib/db/migrate';

const migrations: Record<string, Migration> = {
  '2026-11-27-001-scim': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('scim_user')
        .addColumn('user_id', 'text', (column) => column.primaryKey())
        // userName as the directory sent it, and lower-cased for `eq` (SCIM compares it caselessly).
        .addColumn('user_name', 'text', (column) => column.notNull())
        .addColumn('user_name_key', 'text', (column) => column.notNull().unique())
        .addColumn('external_id', 'text')
        // The name's parts, read back as sent (the operator's name is better-auth's `name`).
        .addColumn('given_name', 'text')
        .addColumn('family_name', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        // Deleted by the directory: disabled, hidden from SCIM, still managed (the console cannot
        // enable them again); a new POST of the same userName takes them back.
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema
        .createTable('scim_group')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('display_name', 'text', (column) => column.notNull())
        .addColumn('display_name_key', 'text', (column) => column.notNull().unique())
        .addColumn('external_id', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('scim_group_member')
        .addColumn('group_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('scim_group_member_pk', ['group_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('scim_group_member_user')
        .on('scim_group_member')
        .column('user_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('scim_group_member').execute();
      await db.schema.dropTable('scim_group').execute();
      await db.schema.dropTable('scim_user').execute();
    },
  },
};

export function migrateScim(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'scim', migrations);
}
