/**
 * The user groups' own tables on the console database: registered once in lib/server/migrate.ts, so
 * a table this feature adds is declared and migrated here, beside its queries, and touches nothing
 * outside the feature. None yet: the service keeps the groups, and the directory (lib/directory) what
 * the console has seen of them.
 */
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { type ConsoleMigrations, migrateModule } from '@/lib/db/migrate';

const migrations: ConsoleMigrations = {};

export function migrateUserGroups(database: ConsoleDatabase): Promise<void> {
  return migrateModule(database, 'user_groups', migrations);
}
