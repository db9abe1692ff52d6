/**
 * Before `next start`: brings the console database (operators, sessions, audit log) up to date and
 * creates the first admin when there is no operator yet. Runs in the launcher, not in the server,
 * because a running better-auth instance does not see tables created after it started, and
 * because only the launcher's output reaches the person starting the console.
 */
import { ensureFirstAdmin } from '@/lib/auth/bootstrap';
import { parseAuthConfig } from '@/lib/auth/config';
import { openConsoleDatabase } from '@/lib/auth/database';
import { migrateConsoleDatabase } from '@/lib/auth/migrate';
import { createConsoleAuth } from '@/lib/auth/options';
import type { LauncherSettings } from './settings';

export interface OperatorSignIn {
  consoleUrl: string;
}

export async function prepareOperatorSignIn(
  settings: LauncherSettings,
  log: (message: string) => void,
): Promise<OperatorSignIn> {
  const config = parseAuthConfig({ ...process.env, PORT: String(settings.port), DATA_DIR: settings.dataDir });
  const database = openConsoleDatabase(config.databaseFile);
  try {
    const auth = createConsoleAuth(config, database, {
      log: (level, message) => {
        if (level === 'warn' || level === 'error') log(`sign-in setup: ${message}`);
      },
    });
    const migration = await migrateConsoleDatabase(auth, database);
    if (migration.createdTables.length > 0 || migration.addedColumns.length > 0) {
      log(`console database ready (${config.databaseFile})`);
    }
    const firstAdmin = await ensureFirstAdmin(auth, database, config);
    if (firstAdmin.created && firstAdmin.generatedPassword) {
      log(`First admin: ${firstAdmin.email} / ${firstAdmin.generatedPassword} — change it (Account page).`);
      log('This password is shown once; only its hash is stored.');
    } else if (firstAdmin.created) {
      log(`First admin: ${firstAdmin.email} (password from CONSOLE_ADMIN_PASSWORD).`);
    }
    if (config.oidc) log(`single sign-on through ${config.oidc.displayName} is on`);
    if (!config.secureCookies && !isLoopback(settings.hostname)) {
      log(
        `warning: listening on ${settings.hostname} over plain http: set CONSOLE_URL to the https address people use (behind a TLS proxy) so session cookies are Secure.`,
      );
    }
    return { consoleUrl: config.consoleUrl.origin };
  } finally {
    await database.close();
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '::1';
}
