/**
 * A console server side (better-auth, database, first admin) wired to a fresh mock IdP, for the
 * SSO tests. The server reads its configuration from the environment once, so each test file
 * that uses this runs one configuration.
 */
import { createTestDatabaseLocation } from './console-test-database';
import { startMockOidc } from './mock-oidc';
import { signInThroughSso } from './sso-flow';

export const ssoConsoleOrigin = 'http://127.0.0.1:3998';
export const ssoAdminEmail = 'admin@unit.example';

export async function startSsoConsole(env: Record<string, string>) {
  const idp = await startMockOidc({ port: 0, clientId: 'unit-console', clientSecret: 'unit-secret' });
  const consoleDatabase = await createTestDatabaseLocation('sso');
  Object.assign(process.env, {
    ...consoleDatabase.env,
    PORT: '3998',
    CONSOLE_URL: ssoConsoleOrigin,
    CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
    CONSOLE_ADMIN_EMAIL: ssoAdminEmail,
    CONSOLE_ADMIN_PASSWORD: 'unit-admin-password',
    LOG_LEVEL: 'silent',
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: 'unit-console',
    OIDC_CLIENT_SECRET: 'unit-secret',
    ...env,
  });
  const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
    (await import('@/lib/server')).consoleServer,
  );
  const { consoleServer } = await import('@/lib/server');
  const { ensureFirstAdmin } = await import('@/lib/auth/bootstrap');
  const server = await consoleServer();
  await ensureFirstAdmin(server.auth, server.database, server.config);

  return {
    signIn: (identity: Parameters<typeof signInThroughSso>[2], startBody?: Record<string, unknown>) =>
      signInThroughSso(handleAuthRequest, ssoConsoleOrigin, identity, startBody),
    /** The operator with this email: role, and how many SSO identities are bound to them. */
    operator: async (email: string) => {
      const { db } = server.database;
      const user = await db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst();
      if (!user) return null;
      const accounts = await db
        .selectFrom('account')
        .select('providerId')
        .where('userId', '=', user.id)
        .where('providerId', '=', 'oidc')
        .execute();
      return { role: user.role, ssoAccounts: accounts.length };
    },
    close: async () => {
      await server.database.close();
      await idp.close();
      await consoleDatabase.dispose();
    },
  };
}
