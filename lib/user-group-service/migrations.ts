/**
 * In-code migrations, run at every start (Kysely's Migrator takes a lock, so several processes
 * starting at once on one database are fine). Uniqueness lives in the schema, not in the process:
 * one group per (environment, provided_id), one group per token digest, one key per digest.
 */
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { DatabaseKind, DatabaseSchema } from './database';

function buildMigrations(kind: DatabaseKind): Record<string, Migration> {
  return {
    '0001_initial': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('key_digest', 'text', (column) => column.notNull().unique())
          .addColumn('environment', 'text', (column) =>
            column.notNull().check(sql`environment in ('Customer', 'Testing')`),
          )
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('revoked_at', 'text')
          .execute();

        // team_id is never reused after a delete: AUTOINCREMENT on SQLite, a sequence on PostgreSQL.
        await db.schema
          .createTable('user_groups')
          .addColumn('team_id', kind === 'postgres' ? 'serial' : 'integer', (column) =>
            kind === 'postgres' ? column.primaryKey() : column.primaryKey().autoIncrement(),
          )
          .addColumn('environment', 'text', (column) =>
            column.notNull().check(sql`environment in ('Customer', 'Testing')`),
          )
          .addColumn('provided_id', 'text', (column) => column.notNull())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('properties', 'text')
          .addColumn('mapping', 'text')
          .addColumn('token_digest', 'text', (column) => column.notNull().unique())
          .addColumn('token_ciphertext', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .addUniqueConstraint('user_groups_environment_provided_id_key', ['environment', 'provided_id'])
          .execute();

        await db.schema
          .createTable('service_meta')
          .addColumn('name', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .execute();
      },
    },
  };
}

export async function migrateToLatest(db: Kysely<DatabaseSchema>, kind: DatabaseKind): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => buildMigrations(kind) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
