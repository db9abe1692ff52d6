/**
 * The wire shapes of an operator's own security: enrolling an authenticator app (two-factor),
 * its backup codes, and the step-up a production action asks for. Shared by the account page's
 * forms, the step-up dialog and the routes under /api/account and /api/step-up.
 */
import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH } from '@/lib/limits';
import { authenticationResponseSchema } from '@/lib/passkeys/contract';

const currentPassword = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(MAX_PASSWORD_LENGTH, { error: 'is too long' }),
  );

/**
 * A code from an authenticator app (6 digits) or a backup code (10 letters and digits, with or
 * without the dash): spaces are dropped, as people copy them with spaces.
 */
const secondFactorCode = z
  .pipe(
    z.string().check(z.trim()),
    z.transform((value: string) => value.replace(/\s+/g, '')),
  )
  .check(
    z.refine((value) => /^\d{6}$/.test(value) || /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(value), {
      error: 'must be the 6 digits your app shows, or a backup code',
    }),
  );

export const isAuthenticatorCode = (code: string) => /^\d{6}$/.test(code);

/**
 * With the current password: start enrolling, new backup codes, or remove the second factor. An
 * operator who has no password (SSO only) sends none, and must have signed in recently instead.
 */
export const passwordConfirmationSchema = z.object({ password: z.optional(currentPassword) });

/** The secret to put in an authenticator app, as a QR code (its otpauth:// URI) and as text. */
export const enrolmentSchema = z.object({
  totpUri: z.string(),
  secret: z.string(),
  /** The QR code of totpUri, as an SVG document. */
  qrSvg: z.string(),
  backupCodes: z.array(z.string()),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;

/** The first code from the app, which turns the second factor on. */
export const confirmEnrolmentSchema = z.object({
  code: z
    .pipe(
      z.string().check(z.trim()),
      z.transform((value: string) => value.replace(/\s+/g, '')),
    )
    .check(z.regex(/^\d{6}$/, { error: 'must be the 6 digits your app shows' })),
});

export const backupCodesSchema = z.object({ backupCodes: z.array(z.string()) });

export const doneSchema = z.object({ done: z.literal(true) });

/**
 * Confirming who you are again: the password, a code (authenticator or backup), or a passkey's
 * answer to the challenge of POST /api/step-up/passkey.
 */
export const stepUpSchema = z.union(
  [
    z.strictObject({ password: currentPassword }),
    z.strictObject({ code: secondFactorCode }),
    z.strictObject({ passkey: authenticationResponseSchema }),
  ],
  { error: 'send either { password }, { code } or { passkey }' },
);
export type StepUpRequest = z.infer<typeof stepUpSchema>;

/** Until when the step-up holds (ISO 8601). */
export const stepUpResultSchema = z.object({ until: z.string() });
