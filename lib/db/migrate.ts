import { type Kysely, type Migration, Migrator } from 'kysely';
import type { ConsoleDb } from './console-database';

/**
 * Applies what is missing of one module's migrations, in order, each module with its own
 * bookkeeping table (`<name>_migration`). Idempotent. Migrations see the schema as it was when
 * they were written, not as the current types say, hence `Kysely<unknown>`.
 */
export async function migrateModule(
  db: ConsoleDb,
  name: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `${name}_migration`,
    migrationLockTableName: `${name}_migration_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `The ${name} migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
