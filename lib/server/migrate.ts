/**
 * Brings the console database up to date: better-auth's tables (from its options, as its CLI would,
 * which needs Node 22), then each feature's (the audit log's, the directory's, the bulk jobs'…). A
 * feature is named here once, by its schema module's migrateX(database) (built on lib/db/migrate.ts's
 * migrateModule); its next tables go into that module, not here. Idempotent, so the
 * launcher (and `npm run migrate`) runs it on every start before the console's server starts, and
 * the server runs it again harmlessly before building its instance. On PostgreSQL one instance at a
 * time migrates.
 */
import { getMigrations } from 'better-auth/db/migration';
import { migrateApprovals } from '@/lib/approvals/schema';
import { migrateAuditLog } from '@/lib/audit/schema';
import { migrateAuditChain } from '@/lib/audit-chain/schema';
import type { ConsoleAuth } from '@/lib/auth/options';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { whileMigrationLocked } from '@/lib/db/migrate';
import { migrateDirectory } from '@/lib/directory/schema';
import { migrateInvitations } from '@/lib/invitations/schema';
import { migrateJobInput } from '@/lib/jobs/job-input';
import { migratePauseReasons } from '@/lib/jobs/pause-reasons-migration';
import { migrateJobs } from '@/lib/jobs/schema';
import { migrateScim } from '@/lib/scim/schema';
import { migrateUsedCodes } from '@/lib/two-factor/used-codes';
import { migrateUserGroups } from '@/lib/user-groups/schema';

export interface MigrationReport {
  createdTables: string[];
  addedColumns: string[];
}

export function migrateConsoleDatabase(
  auth: ConsoleAuth,
  database: ConsoleDatabase,
): Promise<MigrationReport> {
  return whileMigrationLocked(database, () => applyConsoleMigrations(auth, database));
}

/** The same, for a caller that holds the migration lock already (lib/db/migrate.ts's whileMigrationLocked). */
export async function applyConsoleMigrations(
  auth: ConsoleAuth,
  database: ConsoleDatabase,
): Promise<MigrationReport> {
  const plan = await getMigrations(auth.options);
  if (plan.toBeCreated.length > 0 || plan.toBeAdded.length > 0 || plan.toBeAddedIndexes.length > 0) {
    await plan.runMigrations();
  }
  await migrateAuditLog(database);
  await migrateAuditChain(database);
  await migrateDirectory(database);
  await migrateJobs(database);
  await migratePauseReasons(database);
  await migrateJobInput(database);
  await migrateInvitations(database);
  await migrateUsedCodes(database);
  await migrateScim(database);
  await migrateApprovals(database);
  await migrateUserGroups(database);
  return {
    createdTables: plan.toBeCreated.map((table) => table.table),
    addedColumns: plan.toBeAdded.flatMap((table) =>
      Object.keys(table.fields).map((field) => `${table.table}.${field}`),
    ),
  };
}
