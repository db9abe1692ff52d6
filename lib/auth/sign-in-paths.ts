/** Where better-auth answers, and its endpoints the console tells sign-ins apart by. */
export const AUTH_BASE_PATH = '/api/auth';

/** better-auth's endpoint that signs in with a passkey (lib/auth/proxy/route.ts lets it through). */
export const PASSKEY_SIGN_IN_PATH = '/passkey/verify-authentication';

/** better-auth's second steps after a password: an authenticator code, or a backup code. */
export const TOTP_SIGN_IN_PATH = '/two-factor/verify-totp';
export const BACKUP_CODE_SIGN_IN_PATH = '/two-factor/verify-backup-code';

/** better-auth's endpoints whose session comes of a second factor: the code step, or a passkey. */
export function provesSecondFactor(path: string | undefined): boolean {
  return path === TOTP_SIGN_IN_PATH || path === BACKUP_CODE_SIGN_IN_PATH || path === PASSKEY_SIGN_IN_PATH;
}

/** better-auth's OAuth callback (GET, or POST for form_post). */
export function isSsoCallback(path: string | undefined): boolean {
  return path?.startsWith('/callback/') ?? false;
}
