/**
 * Brings the console database up to date: better-auth's tables (from its options, as its CLI would,
 * which needs Node 22) the audit log's, the directory's and the bulk jobs'. Idempotent, so the launcher runs it on every start
 * before the console's server starts, and the server runs it again harmlessly before building its instance.
 */
import { getMigrations } from 'better-auth/db/migration';
import { migrateAuditLog } from '@/lib/audit/schema';
import type { ConsoleAuth } from '@/lib/auth/options';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { migrateDirectory } from '@/lib/directory/schema';
import { migrateJobs } from '@/lib/jobs/schema';

export interface MigrationReport {
  createdTables: string[];
  addedColumns: string[];
}

export async function migrateConsoleDatabase(
  auth: ConsoleAuth,
  database: ConsoleDatabase,
): Promise<MigrationReport> {
  const plan = await getMigrations(auth.options);
  if (plan.toBeCreated.length > 0 || plan.toBeAdded.length > 0 || plan.toBeAddedIndexes.length > 0) {
    await plan.runMigrations();
  }
  await migrateAuditLog(database.db);
  await migrateDirectory(database.db);
  await migrateJobs(database.db);
  return {
    createdTables: plan.toBeCreated.map((table) => table.table),
    addedColumns: plan.toBeAdded.flatMap((table) =>
      Object.keys(table.fields).map((field) => `${table.table}.${field}`),
    ),
  };
}
