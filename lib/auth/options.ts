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
 */
import { randomInt } from 'node:crypto';
import { passkey } from '@better-auth/passkey';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { createAccessControl } from 'better-auth/plugins/access';
import { admin } from 'better-auth/plugins/admin';
import { adminAc, defaultStatements } from 'better-auth/plugins/admin/access';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { ConsoleConfig } from '@/lib/config';
import { clientAddress } from '@/lib/config/trusted-proxies';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import type { Role } from '@/lib/roles';
import { resolveAuthSecret } from './secret';
import { ssoLinkRefusal, ssoSignUpRefusal } from './sso-policy';

export const AUTH_BASE_PATH = '/api/auth';
const COOKIE_PREFIX = 'console';

/**
 * better-auth's error code for a sign-in refused because its audit entry could not be written: the
 * sign-in answers 503 with it (the console's route answers audit_unavailable), an SSO callback
 * redirects to the sign-in page with it.
 */
export const SIGN_IN_NOT_RECORDED = 'AUDIT_UNAVAILABLE';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface NewSession {
  userId: string;
  token: string;
  /** better-auth's endpoint: /sign-in/email, /callback/<provider>, /two-factor/verify-totp, … */
  path: string | undefined;
}

/** How a session was signed in: policy and step-up treat SSO operators as their IdP decides. */
export type SignInMethod = 'password' | 'passkey' | 'sso';

/** better-auth's endpoint that signs in with a passkey (lib/server/auth-route.ts lets it through). */
export const PASSKEY_SIGN_IN_PATH = '/passkey/verify-authentication';

/** better-auth's second steps after a password: an authenticator code, or a backup code. */
export const TOTP_SIGN_IN_PATH = '/two-factor/verify-totp';
export const BACKUP_CODE_SIGN_IN_PATH = '/two-factor/verify-backup-code';

/** The name of the app in authenticator apps, beside the operator's email. */
const TOTP_ISSUER = 'User Group Console';
const BACKUP_CODE_COUNT = 10;

export interface ConsoleAuthDependencies {
  /** Receives better-auth's messages (never its extra arguments, which may hold request data). */
  log: (level: LogLevel, message: string) => void;
  /**
   * Before any session is created (a sign-in, by password or SSO): puts it on record. When this
   * throws, no session is created and the sign-in fails with SIGN_IN_NOT_RECORDED.
   */
  onSessionCreating?: (session: NewSession) => Promise<void>;
  /** Once the session exists. It must not throw: the sign-in has happened by then. */
  onSessionCreated?: (session: NewSession) => Promise<void>;
  /**
   * Set while better-auth replaces the signed-in operator's session (enrolling a second factor,
   * changing a password): the new session is no sign-in, is not recorded as one, and keeps what
   * this says of the one it replaces.
   */
  replacedSessionCarry?: () => { signInMethod?: SignInMethod; secondFactorAt?: string | null } | undefined;
  /**
   * Within an SSO callback: keeps when the IdP authenticated the person (its ID token's `auth_time`,
   * read where better-auth stores the token on the account) for the session created next.
   */
  idpAuthentication?: { note(at: string | null): void; read(): string | null };
}

const accessControl = createAccessControl(defaultStatements);
const noAdminPowers = accessControl.newRole({ user: [], session: [] });
const adminRoles = {
  admin: accessControl.newRole(adminAc.statements),
  support: noAdminPowers,
  viewer: noAdminPowers,
} satisfies Record<Role, unknown>;

export function createConsoleAuth(
  config: ConsoleConfig,
  database: ConsoleDatabase,
  deps: ConsoleAuthDependencies,
) {
  const { oidc } = config;
  const secret = resolveAuthSecret(config.auth.secret, config.dataDir);
  /** `auth_time` of an ID token better-auth has verified, as ISO 8601, or null when it has none. */
  const noteIdpAuthentication = (idToken: unknown) => {
    const authTime = typeof idToken === 'string' ? idTokenClaims(idToken).auth_time : undefined;
    if (typeof authTime !== 'number' || !Number.isFinite(authTime)) {
      deps.log(
        'warn',
        'the identity provider sent no auth_time although max_age was asked: this sign-in is no recent authentication for step-up',
      );
      return deps.idpAuthentication?.note(null);
    }
    deps.idpAuthentication?.note(new Date(authTime * 1000).toISOString());
  };
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
    session: {
      expiresIn: config.auth.sessionTtlSeconds,
      // better-auth's own "fresh session" rule (adding a passkey) is off: the console asks for an
      // authentication within CONSOLE_STEP_UP_MINUTES instead, which a step-up renews.
      freshAge: 0,
      disableSessionRefresh: true,
      additionalFields: {
        // Set when the session is created (the database hook below), never from a request.
        signInMethod: { type: 'string', required: false, input: false },
        /** The last step-up (lib/server/step-up.ts): with createdAt, how recently they authenticated. */
        steppedUpAt: { type: 'date', required: false, input: false },
        /** Wrong step-up proofs since the last right one (lib/server/step-up.ts ends the session at a limit). */
        stepUpFailures: { type: 'number', required: false, input: false },
        /**
         * When this session proved a second factor, if it did: a sign-in with a code or a passkey
         * does; a password alone or an SSO sign-in proves none, and must be followed by one where the
         * operator has one (lib/server/step-up.ts).
         */
        secondFactorAt: { type: 'date', required: false, input: false },
        /**
         * An SSO session's authentication, as the IdP dates it (`auth_time`): the console asks the
         * IdP for `max_age`, and an IdP that answers with an older authentication, or none, is no
         * recent authentication for step-up however new the session is (lib/server/index.ts).
         */
        idpAuthenticatedAt: { type: 'date', required: false, input: false },
      },
    },
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
      admin({
        ac: accessControl,
        roles: adminRoles,
        adminRoles: ['admin'],
        // Only people arriving through SSO get the default: admins name a role for everyone they add.
        defaultRole: oidc?.newOperatorRole ?? 'viewer',
        bannedUserMessage: 'This operator is disabled. Ask an admin of the console.',
      }),
      twoFactor({
        issuer: TOTP_ISSUER,
        // Encrypted with the auth secret like the TOTP secret (better-auth's default keeps them in
        // clear); codes stored in clear before this read as they are until they are replaced.
        backupCodeOptions: {
          amount: BACKUP_CODE_COUNT,
          customBackupCodesGenerate: () => Array.from({ length: BACKUP_CODE_COUNT }, backupCode),
          storeBackupCodes: {
            encrypt: (codes) => symmetricEncrypt({ key: secret, data: codes }),
            decrypt: (stored) =>
              stored.startsWith('[')
                ? Promise.resolve(stored)
                : symmetricDecrypt({ key: secret, data: stored }),
          },
        },
        // An operator without a password (SSO only) enrols without one; the console asks them for a
        // recent sign-in instead (app/api/account/two-factor/route.ts).
        allowPasswordless: true,
        // Remembered devices are off: the console never sends trustDevice (lib/server/auth-route.ts).
      }),
      // Passkeys (WebAuthn): a sign-in of their own and a second factor. The relying party is the
      // console's URL (its host name; an IP address cannot be one), and only an answer made for
      // that origin is taken. The authenticator must verify the person (PIN or biometrics): a
      // passkey is then two factors in one, and counts for CONSOLE_REQUIRE_2FA.
      passkey({
        rpName: 'User Group Console',
        rpID: config.consoleUrl.hostname,
        origin: config.consoleUrl.origin,
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        registration: {
          afterVerification: async ({ verification }) => {
            if (!verification.registrationInfo?.userVerified) throw userNotVerified();
          },
        },
        authentication: {
          afterVerification: async ({ verification }) => {
            if (!verification.authenticationInfo.userVerified) throw userNotVerified();
          },
        },
        advanced: { webAuthnChallengeCookie: 'passkey' },
      }),
      genericOAuth({
        config: oidc
          ? [
              {
                providerId: oidc.providerId,
                name: oidc.displayName,
                discoveryUrl: oidc.discoveryUrl,
                clientId: oidc.clientId,
                clientSecret: oidc.clientSecret,
                scopes: oidc.scopes,
                pkce: true,
                requireIdTokenVerification: true,
                disableImplicitSignUp: oidc.newOperatorRole === null,
                // A sign-in through the IdP counts as a recent authentication for Customer's step-up
                // (lib/server/step-up.ts): ask the IdP to authenticate again when its own session is
                // older than that window (OpenID Connect max_age).
                authorizationUrlParams: { max_age: String(config.auth.stepUpSeconds) },
              },
            ]
          : [],
      }),
    ],
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => {
            if (!oidc || !isSsoCallback(context?.path)) return;
            const refusal = ssoSignUpRefusal(user, oidc);
            if (refusal) {
              deps.log('warn', `single sign-on refused a new operator: ${refusal}`);
              return false;
            }
          },
        },
      },
      account: {
        create: {
          before: async (account) => {
            if (!oidc || account.providerId !== oidc.providerId) return;
            const operator = await ssoBinding(database, account.userId, oidc.providerId);
            const refusal = operator ? ssoLinkRefusal(operator, oidc) : 'no such operator';
            if (refusal) {
              deps.log('warn', `single sign-on refused to link an identity: ${refusal}`);
              return false;
            }
            noteIdpAuthentication(account.idToken);
          },
        },
        // Every later SSO sign-in stores its new ID token on the account.
        update: {
          before: async (account) => {
            if (oidc && account.providerId === oidc.providerId && 'idToken' in account)
              noteIdpAuthentication(account.idToken);
          },
        },
      },
      session: {
        create: {
          // On record before it exists: a sign-in the audit log cannot record does not happen (no
          // session row to delete afterwards, no cookie).
          before: async (session, context) => {
            const carried = (session as { signInMethod?: unknown }).signInMethod;
            const signInMethod: SignInMethod =
              carried === 'sso' || carried === 'password' || carried === 'passkey'
                ? carried
                : isSsoCallback(context?.path)
                  ? 'sso'
                  : context?.path === PASSKEY_SIGN_IN_PATH
                    ? 'passkey'
                    : 'password';
            // The address the sessions list shows: the client's as the console decides it (the socket,
            // or a trusted proxy's report), never a header anyone can send (better-auth's default).
            const headers = (context as { headers?: Headers } | null)?.headers;
            const ipAddress = headers ? (clientAddress(headers, config.trustedProxies) ?? '') : '';
            const carry = deps.replacedSessionCarry?.();
            if (carry)
              return {
                data: {
                  ...session,
                  signInMethod: carry.signInMethod ?? signInMethod,
                  secondFactorAt: carry.secondFactorAt ?? null,
                  ipAddress,
                },
              };
            try {
              await deps.onSessionCreating?.(newSession(session, context?.path));
            } catch {
              deps.log('error', 'a sign-in was refused: its audit entry could not be written');
              throw new APIError('SERVICE_UNAVAILABLE', {
                code: SIGN_IN_NOT_RECORDED,
                message:
                  'Nothing was done: the console could not write its audit log. Try again in a moment.',
              });
            }
            // A sign-in that passed a second factor (a code after the password, or a passkey) says so:
            // a password alone proves none, and an operator who has one is asked for it next.
            const secondFactorAt = provesSecondFactor(context?.path) ? new Date().toISOString() : null;
            const idpAuthenticatedAt =
              signInMethod === 'sso' ? (deps.idpAuthentication?.read() ?? null) : null;
            return { data: { ...session, signInMethod, ipAddress, secondFactorAt, idpAuthenticatedAt } };
          },
          after: async (session, context) => {
            if (deps.replacedSessionCarry?.()) return;
            await deps.onSessionCreated?.(newSession(session, context?.path));
          },
        },
      },
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

/** The authenticator did not ask for the PIN or fingerprint: not enough for the console. */
const userNotVerified = () =>
  new APIError('BAD_REQUEST', {
    code: 'USER_NOT_VERIFIED',
    message: 'The passkey must ask for your PIN, fingerprint or face.',
  });

function newSession(session: { userId: string; token: string }, path: string | undefined): NewSession {
  return { userId: session.userId, token: session.token, path };
}

/**
 * A backup code people copy from paper: ten characters in two groups of five, from an alphabet with
 * no look-alikes (no 0/O, 1/I/l: better-auth's default mixes them), about 50 bits.
 */
const BACKUP_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
function backupCode(): string {
  const characters = Array.from(
    { length: 10 },
    () => BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)],
  );
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

/** The claims of a JWT (its signature is better-auth's to check: requireIdTokenVerification). */
function idTokenClaims(idToken: string): Record<string, unknown> {
  try {
    const claims: unknown = JSON.parse(
      Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
    );
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** better-auth's endpoints whose session comes of a second factor: the code step, or a passkey. */
function provesSecondFactor(path: string | undefined): boolean {
  return path === TOTP_SIGN_IN_PATH || path === BACKUP_CODE_SIGN_IN_PATH || path === PASSKEY_SIGN_IN_PATH;
}

/** better-auth's OAuth callback (GET, or POST for form_post). */
function isSsoCallback(path: string | undefined): boolean {
  return path?.startsWith('/callback/') ?? false;
}

/** The operator's email and how many SSO identities are bound to them already. */
async function ssoBinding(database: ConsoleDatabase, userId: string, providerId: string) {
  const { db } = database;
  const operator = await db.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
  if (!operator) return null;
  const { count } = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('userId', '=', userId)
    .where('providerId', '=', providerId)
    .executeTakeFirstOrThrow();
  return { email: operator.email, ssoAccounts: Number(count) };
}
