/**
 * The better-auth plugins the console uses, one function each: roles and disabling (admin), a
 * second factor by authenticator app or backup codes, passkeys, and OpenID Connect SSO.
 */
import { randomInt } from 'node:crypto';
import { passkey } from '@better-auth/passkey';
import { APIError } from 'better-auth/api';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { createAccessControl } from 'better-auth/plugins/access';
import { admin } from 'better-auth/plugins/admin';
import { adminAc, defaultStatements } from 'better-auth/plugins/admin/access';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { ConsoleConfig } from '@/lib/config';
import type { Role } from '@/lib/roles';

/** The name of the app in authenticator apps, beside the operator's email. */
const TOTP_ISSUER = 'User Group Console';
const BACKUP_CODE_COUNT = 10;

const accessControl = createAccessControl(defaultStatements);
const noAdminPowers = accessControl.newRole({ user: [], session: [] });
const adminRoles = {
  admin: accessControl.newRole(adminAc.statements),
  support: noAdminPowers,
  viewer: noAdminPowers,
} satisfies Record<Role, unknown>;

/**
 * Roles and disabling. Its HTTP endpoints stay unreachable (the console's /api/auth route lets
 * through an allow-list): operator changes go through /api/operators.
 */
export function rolesPlugin(oidc: ConsoleConfig['oidc']) {
  return admin({
    ac: accessControl,
    roles: adminRoles,
    adminRoles: ['admin'],
    // Only people arriving through SSO get the default: admins name a role for everyone they add.
    defaultRole: oidc?.newOperatorRole ?? 'viewer',
    bannedUserMessage: 'This operator is disabled. Ask an admin of the console.',
  });
}

export function secondFactorPlugin(secret: string) {
  return twoFactor({
    issuer: TOTP_ISSUER,
    // Encrypted with the auth secret like the TOTP secret (better-auth's default keeps them in
    // clear); codes stored in clear before this read as they are until they are replaced.
    backupCodeOptions: {
      amount: BACKUP_CODE_COUNT,
      customBackupCodesGenerate: () => Array.from({ length: BACKUP_CODE_COUNT }, backupCode),
      storeBackupCodes: {
        encrypt: (codes) => symmetricEncrypt({ key: secret, data: codes }),
        decrypt: (stored) =>
          stored.startsWith('[') ? Promise.resolve(stored) : symmetricDecrypt({ key: secret, data: stored }),
      },
    },
    // An operator without a password (SSO only) enrols without one; the console asks them for a
    // recent sign-in instead (app/api/account/two-factor/route.ts).
    allowPasswordless: true,
    // Remembered devices are off: the console never sends trustDevice (lib/auth/proxy/route.ts).
  });
}

/**
 * Passkeys (WebAuthn): a sign-in of their own and a second factor. The relying party is the
 * console's URL (its host name; an IP address cannot be one), and only an answer made for that
 * origin is taken. The authenticator must verify the person (PIN or biometrics): a passkey is then
 * two factors in one, and counts for CONSOLE_REQUIRE_2FA.
 */
export function passkeyPlugin(consoleUrl: URL) {
  return passkey({
    rpName: 'User Group Console',
    rpID: consoleUrl.hostname,
    origin: consoleUrl.origin,
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
  });
}

/** OpenID Connect SSO when configured (provider id `oidc`); with SSO off, no provider. */
export function ssoPlugin(oidc: ConsoleConfig['oidc'], stepUpSeconds: number) {
  return genericOAuth({
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
            // (lib/two-factor/step-up.ts): ask the IdP to authenticate again when its own session is
            // older than that window (OpenID Connect max_age).
            authorizationUrlParams: { max_age: String(stepUpSeconds) },
          },
        ]
      : [],
  });
}

/** The authenticator did not ask for the PIN or fingerprint: not enough for the console. */
const userNotVerified = () =>
  new APIError('BAD_REQUEST', {
    code: 'USER_NOT_VERIFIED',
    message: 'The passkey must ask for your PIN, fingerprint or face.',
  });

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
