/**
 * Before the console's server starts: brings the console database (operators, sessions, audit log) up to date and
 * creates the first admin when there is no operator yet. Runs in the launcher, not in the server,
 * because a running better-auth instance does not see tables created after it started, and
 * because only the launcher's output reaches the person starting the console.
 */
import { ensureFirstAdmin } from '@/lib/auth/bootstrap';
import type { Clock } from '@/lib/clock';
import type { ConsoleConfig } from '@/lib/config';
import { scimStartupWarnings } from '@/lib/config/scim';
import { describeDatabase } from '@/lib/db/describe';
import { whileMigrationLocked } from '@/lib/db/migrate';
import { composeConsole } from '@/lib/server/compose';
import { applyConsoleMigrations } from '@/lib/server/migrate';

export interface OperatorSignIn {
  consoleUrl: string;
  /**
   * How to sign in as the first admin, when this start created them: printed by the launcher as the
   * last lines before the console answers, so the output's end is where to look (#43, item 8).
   */
  firstAdminLines: string[];
}

export async function prepareOperatorSignIn(
  config: ConsoleConfig,
  log: (message: string) => void,
  clock: Clock,
): Promise<OperatorSignIn> {
  const { auth, database } = composeConsole(
    config,
    (level, message) => {
      if (level === 'warn' || level === 'error') log(`sign-in setup: ${message}`);
    },
    clock,
  );
  try {
    // Under the lock: console instances starting together on one PostgreSQL database would each
    // find no operator and each create the first admin.
    const { migration, firstAdmin } = await whileMigrationLocked(database, async () => ({
      migration: await applyConsoleMigrations(auth, database),
      firstAdmin: await ensureFirstAdmin(auth, database, config),
    }));
    if (migration.createdTables.length > 0 || migration.addedColumns.length > 0) {
      log(`console database ready (${describeDatabase(config.database)})`);
    }
    const firstAdminLines =
      firstAdmin.created && firstAdmin.generatedPassword
        ? [
            `First admin: ${firstAdmin.email} / ${firstAdmin.generatedPassword} — change it (Account page).`,
            'This password is shown once; only its hash is stored.',
          ]
        : firstAdmin.created
          ? [`First admin: ${firstAdmin.email} (password from CONSOLE_ADMIN_PASSWORD).`]
          : [];
    if (config.oidc) log(`single sign-on through ${config.oidc.displayName} is on`);
    for (const warning of scimStartupWarnings(config.scim, config.approvals.rules)) log(warning);
    if (!config.secureCookies && !isLoopback(config.hostname)) {
      log(
        `warning: listening on ${config.hostname} over plain http: set CONSOLE_URL to the https address people use (behind a TLS proxy) so session cookies are Secure.`,
      );
    }
    return { consoleUrl: config.consoleUrl.origin, firstAdminLines };
  } finally {
    await database.close();
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '::1';
}
