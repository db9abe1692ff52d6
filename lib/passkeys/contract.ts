/**
 * The wire shapes of an operator's passkeys (WebAuthn): the account page's list, adding one (the
 * browser's options, then the authenticator's answer) and removing one. The WebAuthn answers are
 * the browser's JSON (@simplewebauthn/browser), checked in depth by the library on the server;
 * here only their outline, so that nothing else rides along.
 */
import * as z from 'zod/mini';

/** One passkey as the account page lists it: never its credential id or key. */
const passkeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.nullable(z.string()),
});
export type PasskeySummary = z.infer<typeof passkeySummarySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySummarySchema) });

export const MAX_PASSKEY_NAME_LENGTH = 64;

const passkeyName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(MAX_PASSKEY_NAME_LENGTH, { error: `must be at most ${MAX_PASSKEY_NAME_LENGTH} characters` }),
  );

/** Naming the passkey about to be made (the name is shown in the list, and in the authenticator). */
export const newPasskeySchema = z.object({ name: passkeyName });

/** Options for navigator.credentials.create / .get, as the server made them (passed on as they are). */
export const webAuthnOptionsSchema = z.record(z.string(), z.unknown());

const base64url = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

/** The authenticator's answer to a registration (navigator.credentials.create). */
const registrationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.string()),
});

/** The authenticator's answer to a sign-in or step-up (navigator.credentials.get). */
export const authenticationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(base64url),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.string()),
});

export type PasskeyAnswer = z.infer<typeof authenticationResponseSchema>;

export const addPasskeySchema = z.object({ name: passkeyName, response: registrationResponseSchema });
export type AddPasskey = z.infer<typeof addPasskeySchema>;

export const addedPasskeySchema = z.object({ passkey: passkeySummarySchema });
