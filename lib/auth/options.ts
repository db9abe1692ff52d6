/**
 * The console's better-auth instance, built from the parsed configuration and an open console
 * database. Plain module: the composition root (lib/server/compose.ts) builds one, for the launcher
 * (to migrate and create the first admin) and for the Next server.
 *
 * - Email and password; nobody signs themselves up (operators are added by an admin).
 * - OpenID Connect SSO through the generic OAuth plugin when configured (provider id `oidc`), under
 *   the rules of lib/auth/sso-policy.ts (verified emails, one identity per operator, domains).
 * - Roles and disabling through the admin plugin; its HTTP endpoints stay unreachable (the
 *   console's /api/auth route lets through an allow-list), operator changes go through
 *   /api/operators, which checks the role, refuses cross-site requests and writes the audit log.
 * - Sessions in the database, absolute expiry (no sliding refresh), HttpOnly SameSite=Lax cookies,
 *   `Secure` when the console URL is https.
 *
 * Its parts live beside it: the plugins (auth-plugins.ts), the session settings
 * (session-settings.ts), and the database hooks for SSO (sso-hooks.ts) and for sign-ins on record
 * (session-hooks.ts).
 */
import { betterAuth } from 'better-auth';
import type { ConsoleConfig } from '@/lib/config';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import type { ConsoleAuthDependencies } from './auth-dependencies';
import { passkeyPlugin, rolesPlugin, secondFactorPlugin, ssoPlugin } from './auth-plugins';
import { resolveAuthSecret } from './secret';
import { sessionHooks } from './session-hooks';
import { sessionSettings } from './session-settings';
import { AUTH_BASE_PATH } from './sign-in-paths';
import { ssoHooks } from './sso-hooks';

export type { ConsoleAuthDependencies, NewSession, SignInMethod } from './auth-dependencies';

export { SIGN_IN_NOT_RECORDED } from './session-hooks';
export {
  AUTH_BASE_PATH,
  BACKUP_CODE_SIGN_IN_PATH,
  PASSKEY_SIGN_IN_PATH,
  TOTP_SIGN_IN_PATH,
} from './sign-in-paths';

const COOKIE_PREFIX = 'console';

/** better-auth, set up for the console; its type (ConsoleAuth) is what the plugins and fields make it. */
export function createConsoleAuth(
  config: ConsoleConfig,
  database: ConsoleDatabase,
  deps: ConsoleAuthDependencies,
) {
  const secret = resolveAuthSecret(config.auth.secret, config.dataDir);
  return betterAuth({
    appName: 'User Group Console',
    baseURL: config.consoleUrl.origin,
    basePath: AUTH_BASE_PATH,
    secret,
    database: { db: database.db, type: database.dialect },
    trustedOrigins: config.trustedOrigins,
    user: {
      additionalFields: {
        /** When they last signed in (a whole sign-in, second factor included): the operators list shows it. */
        lastSignInAt: { type: 'date', required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    session: sessionSettings(config.auth),
    account: {
      // An operator an admin added by email may later sign in through the company's IdP. The
      // provider is not "trusted": linking then needs the IdP to say the email is verified.
      accountLinking: { enabled: true, trustedProviders: [] },
    },
    // The /api/auth route applies its own sign-in limiter (lib/auth/sign-in-limiter.ts).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.secureCookies,
      cookiePrefix: COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/' },
    },
    plugins: [
      rolesPlugin(config.oidc),
      secondFactorPlugin(secret),
      passkeyPlugin(config.consoleUrl),
      ssoPlugin(config.oidc, config.auth.stepUpSeconds),
    ],
    databaseHooks: {
      ...ssoHooks(config.oidc, database, deps),
      session: sessionHooks(config, deps),
    },
    onAPIError: { errorURL: '/sign-in' },
    logger: {
      level: 'warn',
      log: (level, message) => deps.log(level, message),
    },
    telemetry: { enabled: false },
  });
}

export type ConsoleAuth = ReturnType<typeof createConsoleAuth>;
